"""Checks every kernel's tests share: the benchmark entry, and compiling the kernel for a
GPU target (the interpreter never compiles it)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from impls.spec import backend
from verify.certification.bench import bench


def assert_bench_reports(spec) -> None:
    """On a GPU both the kernel and its peer are timed; without one only the torch
    formulations are, and the result says why."""
    result = bench(spec, backend())
    assert "error" not in result and result["shape"]
    if backend() == "gpu":
        assert result["kernel_ms"] > 0 and result["peer_ms"] > 0
    else:
        assert "kernel_ms" not in result and result["peer_ms"] > 0
        assert "interpreter" in result["note"]


def assert_compiles_for_gpu(script: str) -> None:
    """Run ``script`` (which compiles kernels to PTX for sm_90 and prints "compiled") in a
    process without TRITON_INTERPRET. Needs no GPU."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env.update(PYTHONPATH=str(Path(__file__).resolve().parents[1]), TRITON_DEFAULT_FP_FUSION="1")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    if "no-nvidia-backend" in run.stdout:
        pytest.skip("triton has no NVIDIA backend here")
    assert run.returncode == 0 and "compiled" in run.stdout, run.stderr[-3000:]
