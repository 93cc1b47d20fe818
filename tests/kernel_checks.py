"""Checks every kernel's tests share: a certificate that passes every case, the benchmark
entry, and compiling the kernel for a GPU target (the interpreter never compiles it)."""
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from impls.spec import backend
from verify.certification.bench import bench


def assert_certificate_passes(certificate, spec) -> None:
    """Every case of every dtype passes, ρ in (0, 1], every contract class covered, and
    the kernel's error compared with the naive formulation's (a finite positive ratio)."""
    assert certificate["pass"], certificate["notes"]
    assert 0 < certificate["rho"] <= 1
    for dtype, result in certificate["per_dtype"].items():
        assert all(case["pass"] for case in result["cases"]), dtype
    assert certificate["cases"]["missing_contract_classes"] == []
    assert set(spec.coverage.contract_classes) <= set(certificate["cases"]["coverage"])
    ratio = certificate["naive_ratio"]
    assert ratio is not None and math.isfinite(ratio) and ratio > 0


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
