"""Floating-point error bounds, evaluated componentwise on actual inputs.

Standard model (Higham, *Accuracy and Stability of Numerical Algorithms*, ch. 2–4):
``fl(a op b) = (a op b)(1 + δ)``, ``|δ| ≤ u``, and ``γₙ = nu / (1 − nu)`` bounds the
product of n such factors. Bounds here are evaluated in float64 and rounded upward:
every figure is multiplied by ``1 + SLACK`` and moved to the next float64 above, which
covers the float64 arithmetic of the bound itself (fewer than 2²³ accumulated roundings
of 2⁻⁵³ each). Below-normal results are covered by ``underflow``: a half spacing of the
format's subnormals, or the smallest normal where hardware flushes subnormals to zero.
"""
from __future__ import annotations

import math
from typing import Union

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
SLACK = 2.0 ** -30
_ALIASES = {"fp64": "float64", "double": "float64", "fp32": "float32", "float": "float32",
            "fp16": "float16", "half": "float16", "bf16": "bfloat16"}


def format_name(fmt: str | torch.dtype) -> str:
    """``torch.float16`` or ``"fp16"`` -> ``"float16"``."""
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


def round_up(x: Number) -> Number:
    """x (≥ 0) enlarged to cover the float64 evaluation of the bound that produced it.
    An exact zero stays zero: it demands an exact result."""
    if isinstance(x, torch.Tensor):
        x = x.to(torch.float64)
        up = torch.nextafter(x * (1.0 + SLACK), torch.full_like(x, math.inf))
        return torch.where(x == 0, x, up)
    x = float(x)
    return x if x == 0 else math.nextafter(x * (1.0 + SLACK), math.inf)


def gamma(n: int | float, u: float) -> float:
    """γₙ = nu / (1 − nu), rounded upward; ``inf`` when nu ≥ 1 (no bound)."""
    if n < 0:
        raise ValueError("gamma needs n ≥ 0")
    nu = n * u
    if nu >= 1.0:
        return math.inf
    return round_up(nu / (1.0 - nu))


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
    return round_up(s * (1.0 + gamma(n, UNIT_ROUNDOFF["float64"])))


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
    g = gamma(k, u)
    factor = (1.0 + u_in) ** 2 * (1.0 + g) - 1.0
    absprod = a.to(torch.float64).abs() @ b.to(torch.float64).abs()
    absprod = absprod * (1.0 + gamma(k, UNIT_ROUNDOFF["float64"]))
    return round_up(factor * absprod)


def output_cast_bound(y_hat: torch.Tensor, fmt: str | torch.dtype,
                      flush_to_zero: bool = False) -> torch.Tensor:
    """Rounding the result to the output format: |fl(y) − y| ≤ u_out|ŷ| + underflow.

    Round to nearest gives |fl(y) − y| ≤ u|fl(y)| in the normal range, so the bound is
    evaluated on the stored output ŷ itself.
    """
    u = unit_roundoff(fmt)
    y = y_hat.to(torch.float64).abs()
    return round_up(u * y + underflow(fmt, flush_to_zero))


def expected_level(n: int, u: float, lam: float = 1.0) -> float:
    """Probabilistic error level λ√n·u (Higham & Mary 2019): the relative error most
    sums of n terms stay below; a yardstick, not a bound."""
    return lam * math.sqrt(max(n, 1)) * u
