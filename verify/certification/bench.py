"""Benchmarks: each kernel against its peer (torch's own op) on the same inputs in the
same run, as ratios and as a fraction of the measured device copy bandwidth.

A kernel's ``spec.execution.bench(backend)`` returns either ready timings (a dict of numbers) or
what to time: ``{"kernel": fn | None, "peer": fn, "reference": fn, "bytes": int,
"flops": int, "shape": str}`` with zero-argument callables. On a GPU the kernel and peer
are timed with ``triton.testing.do_bench`` (median, L2 flushed between runs). Without a
GPU the kernel would run in Triton's interpreter, whose timings mean nothing, so only
the torch formulations are timed on the CPU and the result says so. GPU clocks and
settings are never changed.
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable

import torch

CPU_NOTE = ("no GPU: the kernel would run in Triton's interpreter, whose timings mean "
            "nothing; only the torch formulations are timed, on the CPU")
_BANDWIDTH: dict[str, float] = {}


def time_gpu(fn: Callable[[], Any], warmup: int = 25, rep: int = 100) -> float:
    """Median milliseconds of ``fn`` on the GPU (triton.testing.do_bench, cache flushed)."""
    import triton.testing
    return float(triton.testing.do_bench(fn, warmup=warmup, rep=rep, return_mode="median"))


def time_cpu(fn: Callable[[], Any], repeat: int = 7, min_seconds: float = 0.02) -> float:
    """Median milliseconds of ``fn`` on the CPU over ``repeat`` timed batches."""
    fn()  # warm up
    number, elapsed = 1, 0.0
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds or number >= 1 << 16:
            break
        number *= 2
    samples = [elapsed / number]
    for _ in range(repeat - 1):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return 1e3 * statistics.median(samples)


def copy_bandwidth(nbytes: int = 1 << 28) -> float:
    """Measured device copy bandwidth in GB/s (bytes read + written per second)."""
    if "gpu" not in _BANDWIDTH:
        src = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        ms = time_gpu(lambda: dst.copy_(src))
        _BANDWIDTH["gpu"] = 2 * nbytes / (ms * 1e-3) / 1e9
        del src, dst
    return _BANDWIDTH["gpu"]


def _device_name(backend: str) -> str:
    if backend == "gpu":
        major, minor = torch.cuda.get_device_capability()
        return f"{torch.cuda.get_device_name()} (sm_{major}{minor})"
    return "cpu"


def bench(spec, backend: str) -> dict:
    """Timings of one kernel (see the module docstring)."""
    out: dict[str, Any] = {"kernel": spec.name, "backend": "gpu" if backend == "gpu" else "cpu",
                           "device": _device_name(backend)}
    if spec.execution.bench is None:
        return {**out, "note": "the kernel has no benchmark entry"}
    entry = dict(spec.execution.bench(backend))
    if not any(callable(entry.get(k)) for k in ("kernel", "peer", "reference")):
        return {**out, **entry}  # the kernel timed itself
    info = {k: entry[k] for k in ("shape", "bytes", "flops") if k in entry}
    if backend == "gpu":
        kernel_ms = time_gpu(entry["kernel"])
        peer_ms = time_gpu(entry["peer"]) if callable(entry.get("peer")) else None
        bandwidth = copy_bandwidth()
        result = {**out, **info, "kernel_ms": kernel_ms, "peer_ms": peer_ms,
                  "speedup_vs_peer": (peer_ms / kernel_ms) if peer_ms else None,
                  "copy_bandwidth_gbs": bandwidth}
        if "bytes" in entry:
            achieved = entry["bytes"] / (kernel_ms * 1e-3) / 1e9
            result.update(achieved_gbs=achieved, fraction_of_copy_bandwidth=achieved / bandwidth)
        return result
    timings = {f"{k}_ms": time_cpu(entry[k]) for k in ("reference", "peer")
               if callable(entry.get(k))}
    return {**out, **info, **timings, "note": CPU_NOTE}



