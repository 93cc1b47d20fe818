"""What a kernel module declares so the certifier can check it against its law.

Each ``impls/<name>.py`` ends with ``KERNEL = KernelSpec(...)``, or with
``KERNEL = BoundKernel(...)`` for a kernel whose bound the certifier derives from a
reference computation (``Derived``). The certifier
(``verify/certification/certify.py``) runs the cases of ``coverage`` through
``execution.run``, compares with ``comparison.oracle`` and divides the error by
``bounding.bound`` componentwise; planted bugs, edits of a scratch copy of the kernel's
source listed in ``verify/certification/planted_bugs.py``, must fail.
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


@dataclass(frozen=True)
class Case:
    """One certification input: its ``inputs`` (tensors in float64, the master copies,
    and ints) and ``params``, the kernel's own parameters (k, causal, eps, ...); then what
    certification reads about it: the adversarial ``classes`` it covers (its record
    repeats them; the kernel's ``contract_classes`` must each be covered by some case),
    its reduction length ``n`` (for the expected error level; None: the longest last
    dimension of its inputs), the ``dtypes`` it is limited to (None: every dtype; a
    cancellation case whose numbers only fp32 can hold) and, for a case made from the
    block schedule a wrapper was seen to launch, that block (``schedule_block``)."""

    name: str                          # e.g. "rows=3 n=257 masked-row"
    inputs: Mapping[str, Any]
    params: Mapping[str, Any] = field(default_factory=dict)
    classes: tuple[str, ...] = ()
    n: int | None = None
    dtypes: tuple[str, ...] | None = None
    schedule_block: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "classes", tuple(self.classes))
        if self.dtypes is not None:
            object.__setattr__(self, "dtypes", tuple(self.dtypes))

    def runs_in(self, dtype: str) -> bool:
        """Whether the case is certified in ``dtype``."""
        return self.dtypes is None or dtype in self.dtypes


ERROR_BOUND_MEANING = ("guaranteed: |oracle − true| ≤ error_bound·|true|, "
                       "or ≤ absolute_error_bound where true may be 0")


@dataclass(frozen=True)
class Oracle:
    """What a kernel's oracle returns: the exact outputs by name (``values``, float64 or
    better) and how they were computed — ``method``, with ``details`` (bits, rounding, a
    largest radius) — which the certificate's ``oracle`` records (numbers as their
    largest over the cases). An oracle that guarantees its own error (the ball arithmetic
    of impls/exact.py) states it: |oracle − true| ≤ ``error_bound``·|true|, or ≤
    ``absolute_error_bound`` where the true value may be 0; the certifier adds it to the
    bound. An oracle without a guarantee folds its error into the kernel's bound."""

    values: Mapping[str, Any]
    method: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    error_bound: float | None = None
    absolute_error_bound: float = 0.0

    def record(self) -> str | dict | None:
        """The certificate's ``oracle`` for this case: the method alone, or with its
        details and guaranteed error; None when the oracle says nothing of itself."""
        if not self.details and self.error_bound is None:
            return self.method
        out: dict[str, Any] = {} if self.method is None else {"method": self.method}
        out.update(self.details)
        if self.error_bound is not None:
            out.update(error_bound=self.error_bound,
                       absolute_error_bound=self.absolute_error_bound,
                       error_bound_meaning=ERROR_BOUND_MEANING)
        return out


@dataclass(frozen=True)
class Bound:
    """What a kernel's bound returns: per output a tensor bounding |kernel − oracle|
    componentwise (``values``), the ``formula`` it evaluates (the certificate's
    ``bound.formula``), and ``overflow``: why an output may be non-finite (a failing
    case carries it as its note)."""

    values: Mapping[str, Any]
    formula: str | None = None
    overflow: tuple[str, ...] = ()


@dataclass(frozen=True)
class Execution:
    """What to run: ``run(case, dtype)`` gives the kernel's outputs (torch tensors);
    ``reference(case, dtype)`` the same computation written naively in torch at the
    dtype (bench, the naive error ratio) and ``lower(case, dtype)`` written naively one
    format lower (test power's yardstick; None where there is no lower format);
    ``bench(backend)`` what verify/certification/bench.py times; ``planted``: variants
    of ``run`` that must fail (a user's binding; the project's own kernels plant their
    bugs as source edits, verify/certification/planted_bugs.py)."""

    run: Callable[[Case, str], dict]
    reference: Callable[[Case, str], dict] | None = None
    lower: Callable[[Case, str], dict | None] | None = None
    bench: Callable[[str], dict] | None = None
    planted: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Comparison:
    """What to compare against: ``oracle(case)`` the exact outputs (an ``Oracle``);
    ``exact_outputs`` those compared for equality (indices, ...), the others against the
    bound; ``precision(dtype)`` the formats: {"in", "accumulate", "out",
    "input_precision"?}."""

    oracle: Callable[[Case], Oracle]
    precision: Callable[[str], dict]
    exact_outputs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Coverage:
    """Which cases: ``cases(seed, backend)``, and the case classes the kernel's contract
    requires (special values, masks, shape classes its wrapper accepts): certification
    fails if no case declares one of them in ``Case.classes``."""

    cases: Callable[[int, str], Iterable[Case]]
    contract_classes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bounding:
    """Which bound: ``bound(case, dtype, outputs)`` (a ``Bound``); ``algorithm(backend)``
    the block sizes and reduction tree it assumes; ``gpu_model`` the GPU error model it
    assumes, operation -> impls.accuracy.OpModel (the instruction and its error), checked
    against the compiled code (verify/hardware)."""

    bound: Callable[[Case, str, dict], Bound]
    algorithm: Callable[[str], dict]
    gpu_model: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class KernelSpec:
    """A kernel bound to its laws, with everything certification needs, in parts: what
    it is (name, laws, the combine it shares with its law, dtypes, extra ``sources``
    whose hash the certificate records), what to run, what to compare against, which
    cases, which bound. A new need of certification adds a part, not a field."""

    name: str                                     # module name in impls/
    laws: tuple[str, ...]                         # law ids whose truth licenses it
    summary: str                                  # what it computes, one line
    combine: Callable | None                      # the combine it shares with its law
    dtypes: tuple[str, ...]                       # input dtypes it supports
    execution: Execution
    comparison: Comparison
    coverage: Coverage
    bounding: Bounding
    sources: tuple[str, ...] = ()


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
    ``hand_bound`` (a ``Bounding.bound``) certifies the dtypes ``derived`` does not
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
