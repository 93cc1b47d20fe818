"""The GPU's accuracy per instruction: one table, read from NVIDIA's documentation of the
instructions Triton emits, and the per-operation constants every kernel's GPU bound takes
from it.

Sources (cited per row): *PTX ISA*, section 9.7.3 "Floating Point Instructions" (subsections
div, rcp, sqrt, rsqrt, lg2, ex2, tanh); the CUDA C++ Programming Guide, appendix
"Mathematical Functions" for libdevice's ``logf``. A figure stated in ulps ("within k ulp of
the correctly rounded result") becomes the relative error (k + ½)·2u of the exact value
(one ulp is at most 2u relative); a figure that the documentation states as a relative or
absolute error is used as stated. Where no figure was found a conservative value is used
and the row says so (``conservative=True``).

How Triton 3.9 lowers each operation for sm_90a/sm_100a (read from the compiled PTX by
``verify/hardware``, not assumed): ``tl.exp(x)`` is ``mul.f32 x, 0f3FB8AA3B`` (log₂e rounded
to fp32) then ``ex2.approx.f32``, so the exponent's argument carries two more roundings
(the product and the constant: relative (1+u)² − 1) on top of the ex2 figure; ``tl.log`` is
libdevice's ``logf`` polynomial (``fma.rn.ftz`` steps); ``a / b`` on fp32 is
``div.full.f32``; ``tl.sqrt`` is ``sqrt.approx.ftz.f32`` and ``tl.math.rsqrt``
``rsqrt.approx.ftz.f32`` (both flush subnormal inputs and results to zero); ``tl.dot`` on
fp32 inputs is a wgmma/tcgen05 with TF32 inputs unless ``input_precision="ieee"`` (then an
``fma.rn.f32`` loop); fp16/bf16 inputs use f16/bf16 tensor-core MMAs with fp32
accumulation. Imports only the unit roundoff from ``numerics``: the kernels and ``verify``
both import it.
"""
from __future__ import annotations

from dataclasses import dataclass

from .numerics import U32

PTX = "PTX ISA, 9.7.3 Floating Point Instructions"


@dataclass(frozen=True)
class Instruction:
    name: str            # opcode with its modifiers, as in the PTX
    op: str              # the operation it computes (exp2, log, div, rcp, sqrt, ...)
    rel: float           # maximum relative error of the result
    abs: float           # absolute error term (added to rel·|result|)
    ftz: bool            # flushes subnormal inputs and results to sign-preserving zero
    source: str          # documentation section
    stated: str          # the figure as the documentation states it
    conservative: bool = False  # True where no documented figure was found


def _ulps(k: float) -> float:
    """Within k ulp of the correctly rounded result → relative (k + ½)·2u."""
    return (k + 0.5) * 2.0 * U32


def _row(name, op, rel, stated, source, abs_=0.0, conservative=False) -> Instruction:
    return Instruction(name, op, rel, abs_, ".ftz" in name, source, stated, conservative)


_ROWS = [
    _row("ex2.approx.f32", "exp2", _ulps(2),
         "max 2 ulp from the correctly rounded result, full range", f"{PTX}: ex2"),
    _row("ex2.approx.ftz.f32", "exp2", _ulps(2),
         "max 2 ulp from the correctly rounded result; flushes subnormals", f"{PTX}: ex2"),
    _row("lg2.approx.f32", "log2", 2.0 ** -22,
         "max absolute error 2^-22 on (0.5, 2), else max relative error 2^-22",
         f"{PTX}: lg2", abs_=2.0 ** -22),
    _row("lg2.approx.ftz.f32", "log2", 2.0 ** -22, "as lg2.approx.f32; flushes subnormals",
         f"{PTX}: lg2", abs_=2.0 ** -22),
    _row("libdevice.logf", "log", _ulps(4),
         "figure not retrieved: conservative 4 ulp + 2^-21 absolute (the figures this project "
         "assumed before; the polynomial uses fma.rn.ftz steps)",
         "CUDA C++ Programming Guide, Mathematical Functions (single precision)",
         abs_=2.0 ** -21, conservative=True),
    _row("div.full.f32", "div", _ulps(2), "max 2 ulp, full range", f"{PTX}: div"),
    _row("div.full.ftz.f32", "div", _ulps(2), "max 2 ulp, full range; flushes subnormals",
         f"{PTX}: div"),
    _row("div.approx.f32", "div", _ulps(2),
         "max 2 ulp for |b| in [2^-126, 2^126]; zero beyond", f"{PTX}: div"),
    _row("div.approx.ftz.f32", "div", _ulps(2),
         "max 2 ulp for |b| in [2^-126, 2^126]; flushes subnormals", f"{PTX}: div"),
    _row("div.rn.f32", "div", U32, "IEEE 754 round to nearest", f"{PTX}: div"),
    _row("rcp.approx.f32", "rcp", _ulps(1), "max 1 ulp, full range", f"{PTX}: rcp"),
    _row("rcp.approx.ftz.f32", "rcp", _ulps(1), "max 1 ulp, full range; flushes subnormals",
         f"{PTX}: rcp"),
    _row("rcp.rn.f32", "rcp", U32, "IEEE 754 round to nearest", f"{PTX}: rcp"),
    _row("sqrt.approx.f32", "sqrt", 2.0 ** -23,
         "max relative error 2^-23, positive finite range", f"{PTX}: sqrt"),
    _row("sqrt.approx.ftz.f32", "sqrt", 2.0 ** -23,
         "max relative error 2^-23; flushes subnormals", f"{PTX}: sqrt"),
    _row("sqrt.rn.f32", "sqrt", U32, "IEEE 754 round to nearest", f"{PTX}: sqrt"),
    _row("rsqrt.approx.f32", "rsqrt", 2.0 ** -22.9,
         "max relative error 2^-22.9, positive finite range", f"{PTX}: rsqrt"),
    _row("rsqrt.approx.ftz.f32", "rsqrt", 2.0 ** -22.9,
         "max relative error 2^-22.9; flushes subnormals", f"{PTX}: rsqrt"),
    _row("tanh.approx.f32", "tanh", 2.0 ** -11, "max relative error 2^-11, full range",
         f"{PTX}: tanh"),
]
TABLE: dict[str, Instruction] = {r.name: r for r in _ROWS}

# What a correctly rounded operation gives: the figure a bound may never claim for an
# approximate instruction.
CORRECTLY_ROUNDED = U32


def relative(name: str) -> float:
    """Relative error of the instruction ``name`` (KeyError for an unknown one)."""
    return TABLE[name].rel


@dataclass(frozen=True)
class OpModel:
    """What a kernel's GPU bound assumes for one operation: the instruction it expects
    and the relative/absolute error it uses (at least the table's figure)."""

    op: str
    instruction: str
    rel: float
    abs: float = 0.0


def model(**ops: str) -> dict[str, OpModel]:
    """A kernel's GPU model: ``model(exp="ex2.approx.f32", div="div.full.f32")`` maps
    each operation of tl (exp, log, div, sqrt, rsqrt, ...) to the instruction it lowers to,
    with that instruction's figures from the table."""
    out = {}
    for op, name in ops.items():
        row = TABLE[name]
        out[op] = OpModel(op, name, row.rel, row.abs)
    return out


def claimed(op: str, instruction: str, rel: float, abs_: float = 0.0) -> OpModel:
    """A model row stated by hand (for a user's kernel, or a model to be checked)."""
    return OpModel(op, instruction, rel, abs_)


# The instruction each tl operation lowers to in Triton 3.9 on sm_90a/sm_100a (checked
# against every compiled kernel by verify/hardware; a kernel whose PTX shows another
# instruction for the operation is refused).
TRITON_GPU = model(exp="ex2.approx.f32", log="libdevice.logf", div="div.full.f32",
                   sqrt="sqrt.approx.ftz.f32", rsqrt="rsqrt.approx.ftz.f32")
