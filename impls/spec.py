"""What a kernel module declares so the certifier can check it against its law.

Each ``impls/<name>.py`` ends with ``KERNEL = KernelSpec(...)``, or with
``KERNEL = BoundKernel(...)`` for a kernel whose bound the certifier derives from a
reference computation (``Derived``). The certifier
(``verify/certification/certify.py``) runs ``cases`` through ``run``, compares with ``oracle`` and
divides the error by ``bound`` componentwise; planted bugs, edits of a scratch copy of
the kernel's source listed in ``verify/certification/planted_bugs.py``, must fail.
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
    # variants of ``run`` that must fail (a user's binding); the project's own kernels
    # plant their bugs as source edits (verify/certification/planted_bugs.py)
    planted: Mapping[str, Any] = field(default_factory=dict)
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


@dataclass(frozen=True)
class Extra:
    """Outputs a derived kernel computes beyond its reference's: ``run(case, dtype,
    outputs)`` adds them to the wrapper's outputs, ``oracle(case)`` gives their exact
    values, ``bound(case, dtype, outputs, bound)`` their bounds given the bound of the
    reference's outputs (derived or hand, per dtype)."""

    run: Callable[[Case, str, dict], dict]
    oracle: Callable[[Case], dict]
    bound: Callable[[Case, str, dict, dict], dict]


@dataclass(frozen=True)
class Derived:
    """What a derived bound needs (verify/certification/binding.py interprets it): the
    catalog reference the kernel computes and its options, the reduction block the
    bound may assume, inputs stored in a fixed format, the ``tl.dot`` input precision
    (a function of the dtype) and whether tensor cores accumulate, the dtypes certified
    with it (the others with the kernel's hand bound), the ``@triton.jit`` function
    whose combines are audited, and outputs beyond the reference's."""

    reference: str
    options: Mapping[str, Any] = field(default_factory=dict)
    outputs: tuple[str, ...] | None = None
    block: int | None = None
    formats: Mapping[str, str] = field(default_factory=dict)
    dot_input: str | Callable[[str], str] = "ieee"
    tensor_core: bool = False
    derived_dtypes: tuple[str, ...] | None = None
    kernel: Any = None
    extra: Extra | None = None


@dataclass(frozen=True)
class BoundKernel:
    """A kernel certified with a derived bound: its wrapper, called with the reference's
    inputs, and the data of ``Derived``; the certifier binds it into a ``KernelSpec``.
    ``hand_bound`` (a ``KernelSpec.bound``) certifies the dtypes ``derived`` does not
    hand over; ``algorithm`` adds the kernel's own facts (blocks, passes)."""

    name: str
    wrapper: Callable
    derived: Derived
    laws: tuple[str, ...]
    summary: str
    dtypes: tuple[str, ...]
    cases: Callable[[int, str], Iterable[Case]]
    algorithm: Callable[[str], dict] | None = None
    combine: Callable | None = None
    bench: Callable[[str], dict] | None = None
    hand_bound: Callable[[Case, str, dict], dict] | None = None
    contract_classes: tuple[str, ...] = ()
