"""What a kernel module declares so the certifier can check it against its law.

Each ``impls/<name>.py`` ends with ``KERNEL = KernelSpec(...)``. The certifier
(``verify/certification/certify.py``) runs ``cases`` through ``run``, compares with ``oracle`` and
divides the error by ``bound`` componentwise; ``planted`` variants must fail.
``run`` (through the kernel's wrapper) gets every buffer it hands a kernel from
``impls.buffers`` (``empty``, ``zeros``, ``operand``), so the certifier can place inputs
and outputs in guarded allocations.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping


def backend() -> str:
    """``gpu`` when CUDA is usable and the interpreter is not forced, else
    ``triton-interpreter``. Set before triton is imported (``TRITON_INTERPRET``)."""
    if os.environ.get("TRITON_INTERPRET") == "1":
        return "triton-interpreter"
    try:
        import torch
        if torch.cuda.is_available():
            return "gpu"
    except ImportError:
        pass
    return "triton-interpreter"


def device() -> str:
    return "cuda" if backend() == "gpu" else "cpu"


@dataclass
class Case:
    """One certification input."""

    name: str                          # e.g. "rows=3 n=257 masked-row"
    inputs: Mapping[str, Any]          # tensors in float64 (master copies) and ints
    params: Mapping[str, Any] = field(default_factory=dict)  # k, causal, eps, ...


@dataclass
class KernelSpec:
    """A kernel bound to its laws, with everything certification needs."""

    name: str                                     # module name in impls/
    laws: tuple[str, ...]                         # law ids whose truth licenses it
    summary: str                                  # what it computes, one line
    combine: Callable | None                      # the combine it shares with its law
    dtypes: tuple[str, ...]                       # input dtypes it supports
    run: Callable[[Case, str], dict]              # (case, dtype) -> outputs (torch)
    oracle: Callable[[Case], dict]                # exact outputs (float64 or better)
    bound: Callable[[Case, str, dict], dict]      # (case, dtype, outputs) -> bound per output
    cases: Callable[[int, str], Iterable[Case]]   # (seed, backend) -> cases
    algorithm: Callable[[str], dict]              # backend -> block sizes, reduction tree
    precision: Callable[[str], dict]              # dtype -> {"in","accumulate","out", "input_precision"?}
    exact_outputs: tuple[str, ...] = ()           # outputs compared exactly (indices, ...)
    planted: Mapping[str, Callable[[Case, str], dict]] = field(default_factory=dict)
    reference: Callable[[Case, str], dict] | None = None  # torch formulation (bench, naive)
    bench: Callable[[str], dict] | None = None    # backend -> timings, see verify/certification/bench.py
    sources: tuple[str, ...] = ()                 # extra files whose hash the certificate records
    # Case classes the kernel's contract requires (special values, masks, shape classes
    # its wrapper accepts): certification fails if no case declares one of them in
    # ``params["classes"]``.
    contract_classes: tuple[str, ...] = ()
    # The GPU error model the kernel's GPU bound assumes: operation -> impls.accuracy.OpModel
    # (the instruction and its error). Checked against the compiled code (verify/hardware).
    gpu_model: Mapping[str, Any] = field(default_factory=dict)
