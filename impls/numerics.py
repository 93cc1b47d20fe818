"""Floating-point numerics shared by the kernels' error bounds and the certifier.

Standard model (Higham, *Accuracy and Stability of Numerical Algorithms*, ch. 2–4):
``fl(a op b) = (a op b)(1 + δ)``, ``|δ| ≤ u``, and ``γₙ = nu / (1 − nu)`` bounds the
product of n such factors. Bounds are evaluated in float64 and rounded upward by
``round_up``. Below-normal results are covered by ``underflow``: half a subnormal step of
the format, or the smallest normal where hardware flushes subnormals to zero.

Upward rounding and zero. ``round_up`` enlarges a positive bound by ``1 + SLACK`` (plus
γ of the float64 roundings the caller names) and moves it to the next float64, which
covers the relative error of evaluating the bound in float64. It keeps an exact zero at
zero: a zero bound demands an exact result, and it is correct only where the computation
is exact by construction (a masked position, an empty row, an exactly accumulated
integer product). Relative slack cannot cover an absolute float64 underflow inside the
bound's own evaluation, so a bound that may be evaluated on nonzero data must carry an
absolute underflow term (the kernel bounds here add an ``underflow`` or
``SMALLEST_NORMAL`` term per rounding, or, like nbody's, refuse inputs whose
intermediates leave the normal range), which keeps it far from float64's subnormals; a
zero then never comes from a product that underflowed. The copies this module replaced
disagreed here (three rounded 0 up to 2⁻¹⁰⁷⁴); that changed no certificate, since a
fp32/fp16 output never differs from its float64 oracle by less than 2⁻¹⁰⁷⁴.

Not covered here: the error models of elementary functions beyond the ulp figures named
below, and anything specific to one kernel's reduction tree (that lives with the kernel).
This module imports no project code: the kernels (impls/) and the certifier (verify/)
both import it.
"""
from __future__ import annotations

import math
from typing import Union

import numpy as np
import torch

Number = Union[float, torch.Tensor]

# Unit roundoff u = 2^-p of each format (p = significand bits incl. the hidden one).
UNIT_ROUNDOFF = {
    "float64": 2.0 ** -53,
    "float32": 2.0 ** -24,
    "tf32": 2.0 ** -11,
    "float16": 2.0 ** -11,
    "bfloat16": 2.0 ** -8,
}
# Smallest positive normal of each format (a flush-to-zero result errs by less than this).
SMALLEST_NORMAL = {
    "float64": 2.0 ** -1022,
    "float32": 2.0 ** -126,
    "tf32": 2.0 ** -126,
    "float16": 2.0 ** -14,
    "bfloat16": 2.0 ** -126,
}
# Half the spacing of subnormals: the absolute error of a gradual-underflow rounding.
HALF_SUBNORMAL = {
    "float64": 2.0 ** -1075,
    "float32": 2.0 ** -150,
    "tf32": 2.0 ** -150,
    "float16": 2.0 ** -25,
    "bfloat16": 2.0 ** -134,
}
U64 = UNIT_ROUNDOFF["float64"]
U32 = UNIT_ROUNDOFF["float32"]
FP32_FLUSH = SMALLEST_NORMAL["float32"]     # error of one fp32 result flushed to zero
# Tensor cores may truncate while accumulating: their unit roundoff is taken as 2·u32.
TENSOR_CORE_ACCUMULATE = 2.0 * U32
TF32_OPERAND = 2.0 ** -10                   # fp32 -> tf32 by truncation (rounding: 2⁻¹¹)
# Relative slack covering the float64 evaluation of a bound: fewer than 2²³ accumulated
# roundings of 2⁻⁵³ each.
SLACK = 2.0 ** -30
_ALIASES = {"fp64": "float64", "double": "float64", "fp32": "float32", "float": "float32",
            "fp16": "float16", "half": "float16", "bf16": "bfloat16"}


def format_name(fmt: str | torch.dtype) -> str:
    """``torch.float16`` or ``"fp16"`` -> ``"float16"``; ValueError for other formats."""
    if isinstance(fmt, torch.dtype):
        fmt = str(fmt).replace("torch.", "")
    name = _ALIASES.get(fmt, fmt)
    if name not in UNIT_ROUNDOFF:
        raise ValueError(f"unknown floating-point format {fmt!r}")
    return name


def unit_roundoff(fmt: str | torch.dtype) -> float:
    return UNIT_ROUNDOFF[format_name(fmt)]


def underflow(fmt: str | torch.dtype, flush_to_zero: bool = False) -> float:
    """Absolute error of one rounding whose result lies below the normal range."""
    name = format_name(fmt)
    return SMALLEST_NORMAL[name] if flush_to_zero else HALF_SUBNORMAL[name]


def ulp_error(ulps: float, fmt: str | torch.dtype) -> float:
    """Relative error of a result within ``ulps`` units in the last place: ulps·2u
    (one ulp is at most 2u relative to the value). The elementary-function models
    (exp, log, division: 4 ulps on a GPU) are stated through this."""
    return ulps * 2.0 * unit_roundoff(fmt)


def round_up(x: Number, roundings: int = 0) -> Number:
    """x (≥ 0) enlarged to cover its own float64 evaluation: multiplied by
    ``1 + γ_roundings(u64) + SLACK`` and moved to the next float64 up. ``roundings``
    names the accumulated float64 roundings when they may exceed what SLACK covers (long
    recurrences). An exact zero stays zero (module docstring: where that is sound)."""
    factor = 1.0 + (_gamma_value(roundings, U64) if roundings else 0.0) + SLACK
    if isinstance(x, torch.Tensor):
        x = x.to(torch.float64)
        up = torch.nextafter(x * factor, torch.full_like(x, math.inf))
        return torch.where(x == 0, x, up)
    x = float(x)
    return x if x == 0 else math.nextafter(x * factor, math.inf)


def _gamma_value(n: float, u: float) -> float:
    nu = n * u
    return math.inf if nu >= 1.0 else nu / (1.0 - nu)


def gamma(n: Number, u: float) -> Number:
    """γₙ = nu / (1 − nu), rounded upward; ``inf`` when nu ≥ 1 (no bound). ``n`` may be
    a tensor of counts (elementwise)."""
    if isinstance(n, torch.Tensor):
        nu = n.to(torch.float64) * u
        if bool((nu < 0).any()):
            raise ValueError("gamma needs n ≥ 0")
        g = torch.where(nu < 1, nu / (1 - nu), torch.full_like(nu, math.inf))
        return torch.where(g == 0, g, torch.nextafter(g, torch.full_like(g, math.inf)))
    if n < 0:
        raise ValueError("gamma needs n ≥ 0")
    g = _gamma_value(n, u)
    return g if g in (0.0, math.inf) else math.nextafter(g, math.inf)


def log_roundoff(u: float) -> float:
    """ℓ(u) = −log(1 − u): |log(1 + δ)| ≤ ℓ(u) for |δ| ≤ u (products of rounding
    factors become sums of logarithms)."""
    return -math.log1p(-u)


def compound(n: int | float, rel: float) -> float:
    """(1 + rel)ⁿ − 1 rounded upward: n factors each within relative ``rel``."""
    if n <= 0:
        return 0.0
    return round_up(math.expm1(n * math.log1p(rel)))


def abs_sum(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Σ|xᵢ| along ``dim`` in float64, rounded upward (covers its own summation error)."""
    x = x.to(torch.float64).abs()
    n = x.shape[dim] if x.dim() else 1
    s = x.sum(dim=dim)
    return round_up(s * (1.0 + gamma(n, U64)))


def abs_matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """|A||B| in float64, enlarged by its own rounding (all terms are non-negative)."""
    k = a.shape[-1]
    return (a.double().abs() @ b.double().abs()) * (1.0 + gamma(k, U64))


def recursive_sum_bound(x: torch.Tensor, u: float, dim: int = -1) -> torch.Tensor:
    """|ŝ − s| ≤ γₙ₋₁ Σ|xᵢ| for a left-to-right sum of n terms."""
    n = x.shape[dim]
    return round_up(gamma(max(n - 1, 0), u) * abs_sum(x, dim))


def pairwise_sum_bound(x: torch.Tensor, u: float, dim: int = -1) -> torch.Tensor:
    """|ŝ − s| ≤ γ⌈log₂n⌉ Σ|xᵢ| for a balanced pairwise (tree) sum of n terms."""
    n = x.shape[dim]
    depth = math.ceil(math.log2(n)) if n > 1 else 0
    return round_up(gamma(depth, u) * abs_sum(x, dim))


def dot_bound(x: torch.Tensor, y: torch.Tensor, u: float, dim: int = -1) -> torch.Tensor:
    """|fl(xᵀy) − xᵀy| ≤ γₙ |x|ᵀ|y| for any summation order."""
    n = x.shape[dim]
    prod = x.to(torch.float64).abs() * y.to(torch.float64).abs()
    return round_up(gamma(n, u) * abs_sum(prod, dim))


def dot_factor(k: int, input_precision: str = "ieee",
               u_acc: float = TENSOR_CORE_ACCUMULATE) -> float:
    """c with |fl(xᵀy) − xᵀy| ≤ c·|x|ᵀ|y| for a length-k ``tl.dot`` accumulated in fp32,
    any order: ((1 + e_in)²(1 + γ_k) − 1), e_in the tf32 truncation of each operand
    ("tf32") or 0 ("ieee": fp32 operands as stored; fp16/bf16 products are exact in
    fp32). The accumulation roundoff defaults to the tensor-core figure 2·u32."""
    e_in = TF32_OPERAND if input_precision == "tf32" else 0.0
    return (1.0 + e_in) ** 2 * (1.0 + gamma(k, u_acc)) - 1.0


def matmul_bound(a: torch.Tensor, b: torch.Tensor, u_acc: float, u_in: float = 0.0,
                 tensor_core: bool = False) -> torch.Tensor:
    """|fl(AB) − AB| ≤ ((1 + u_in)²(1 + γ_K) − 1) |A||B|, componentwise.

    ``u_in``: rounding of the inputs before the products (tf32: 2⁻¹¹; 0 when the inputs
    are used as stored — fp16/bf16 products are exact in fp32). ``tensor_core``: the
    accumulation unit roundoff is taken as 2·u_acc (tensor cores may truncate).
    """
    k = a.shape[-1]
    if b.shape[-2] != k:
        raise ValueError(f"inner dimensions differ: {k} and {b.shape[-2]}")
    u = 2.0 * u_acc if tensor_core else u_acc
    factor = (1.0 + u_in) ** 2 * (1.0 + gamma(k, u)) - 1.0
    return round_up(factor * abs_matmul(a, b))


def cast_error(y_hat: torch.Tensor, fmt: str | torch.dtype,
               flush_to_zero: bool = False) -> torch.Tensor:
    """Rounding a result into ``fmt``: |fl(y) − y| ≤ u|ŷ| + underflow, evaluated on the
    stored output ŷ itself (round to nearest gives |fl(y) − y| ≤ u|fl(y)| in the normal
    range). A NaN in ŷ contributes 0: NaNs are compared exactly, not through the bound.
    Not rounded up (callers add it to their bound, then round the total)."""
    y = y_hat.detach().to("cpu", torch.float64).abs().nan_to_num(0.0, posinf=math.inf)
    return unit_roundoff(fmt) * y + underflow(fmt, flush_to_zero)


def stored_output_error(y_hat: torch.Tensor, fmt: str | torch.dtype,
                        accumulate: str | torch.dtype = "float32") -> torch.Tensor:
    """The error of storing a result computed in ``accumulate`` as ``fmt``: zero when the
    formats are the same (the result is stored as computed), else ``cast_error``."""
    if format_name(fmt) == format_name(accumulate):
        return torch.zeros_like(y_hat.detach().to("cpu", torch.float64))
    return cast_error(y_hat, fmt)


def output_cast_bound(y_hat: torch.Tensor, fmt: str | torch.dtype,
                      flush_to_zero: bool = False) -> torch.Tensor:
    """``cast_error`` rounded upward: a complete bound for the cast alone."""
    return round_up(cast_error(y_hat, fmt, flush_to_zero))


def expected_level(n: int, u: float, lam: float = 1.0) -> float:
    """Probabilistic error level λ√n·u (Higham & Mary 2019): the relative error most
    sums of n terms stay below; a yardstick, not a bound."""
    return lam * math.sqrt(max(n, 1)) * u


# --------------------------------------------------------------------------- test values
def half_exact(x) -> torch.Tensor:
    """float64 values that float16, bfloat16 and float32 all hold exactly: clipped to
    ±2¹⁵, rounded to bf16's 8 bits, then to fp16 (which only drops bits below its normal
    range)."""
    t = torch.as_tensor(np.clip(np.asarray(x, dtype=np.float64), -2.0 ** 15, 2.0 ** 15))
    for _ in range(3):
        r = t.to(torch.bfloat16).double().to(torch.float16).double()
        if torch.equal(r, t):
            break
        t = r
    return t


def wide_range(rng: np.random.Generator, shape, lo: float, hi: float) -> np.ndarray:
    """Random signs times 2^U(lo, hi): many binades at once."""
    return rng.choice([-1.0, 1.0], size=shape) * np.exp2(rng.uniform(lo, hi, size=shape))
