"""Measurement records kept beside the certificates: ``certificates/gpu_run.sh`` writes
``bench.gpu.json`` (kernels timed against torch) and ``instructions.gpu.json`` (the GPU's
instruction accuracy, verify/hardware/measure.py); ``crosscheck.gpu.json`` compares the
PTX the GPU compiled with the offline compilations (verify/hardware/crosscheck.py).
They are JSON files in the same
folder but not certificates: the staleness check and the report's certificate pages
leave them out. No kernel has these names (a user's kernel is named ``user.…``)."""
from __future__ import annotations

import os
from pathlib import Path

MEASUREMENT_RECORDS = ("bench", "instructions", "crosscheck")


def is_measurement_record(path: str | os.PathLike) -> bool:
    """Whether the file at ``path`` is one of the measurement records."""
    return Path(path).name.split(".")[0] in MEASUREMENT_RECORDS
