"""Bound arithmetic of the radius interpretation: float64 rounded upward, magnitudes of
balls, exactness tests, and the overflow rule (no bound where the kernel may overflow; an
operation that names itself also raises a flag saying where, ``overflow_flag``).

Functions here take anything with tensors ``v`` (value) and ``r`` (radius); they do not
import ``Ball``. Not covered: the rounding of the evaluated operations themselves (each
operation in ``radius``/``radius_reduce`` adds its own).
"""
from __future__ import annotations

import math

import torch

from impls.numerics import format_name
from verify.certification.radius_model import current, flag

INF = math.inf
UP = 1.0 + 2.0 ** -50


def round_up(x: torch.Tensor, terms: int = 1) -> torch.Tensor:
    """x ≥ 0 enlarged past the float64 error of its own evaluation; NaN → ∞; 0 stays 0."""
    x = torch.where(torch.isnan(x), torch.full_like(x, INF), x)
    scaled = x * (1.0 + (terms + 2) * 2.0 ** -52) if terms > 1 else x * UP
    up = torch.nextafter(scaled, torch.full_like(x, INF))
    return torch.where(x == 0, x, up)


def gamma(n: int, u: float) -> float:
    """γₙ = nu/(1 − nu) rounded upward; ∞ when nu ≥ 1."""
    nu = n * u
    if nu >= 1.0:
        return INF
    return math.nextafter((nu / (1.0 - nu)) * UP, INF) if n else 0.0


def magnitude(b) -> torch.Tensor:
    """|v| + 2r: bounds the exact value and every evaluation in the model."""
    return b.v.abs() + 2.0 * b.r


def lower_magnitude(b) -> torch.Tensor:
    """|v| − 2r: a lower bound on the exact value's and every evaluation's magnitude."""
    return b.v.abs() - 2.0 * b.r


def is_exact_zero(b) -> torch.Tensor:
    return (b.v == 0) & (b.r == 0)


def is_exact_inf(b) -> torch.Tensor:
    return torch.isinf(b.v) & (b.r == 0)


FORMAT_MAX = {"float64": torch.finfo(torch.float64).max, "float32": torch.finfo(torch.float32).max,
              "float16": 65504.0, "bfloat16": torch.finfo(torch.bfloat16).max,
              "tf32": torch.finfo(torch.float32).max}


def no_overflow(v: torch.Tensor, r: torch.Tensor, fmt: str | None = None,
                partial: torch.Tensor | None = None, op: str | None = None) -> torch.Tensor:
    """No bound (∞) where a finite value's ball — or ``partial``, a bound on every
    intermediate of a reduction (Σ|xᵢ| for a sum in any order) — reaches the format's
    overflow threshold: the kernel may have produced ±∞ there. ``op`` (an intermediate
    in the compute format, "x * x") raises ``overflow_flag`` where that happens with a
    finite radius (an operand without a bound was flagged where it lost it)."""
    name = format_name(fmt or current().compute)
    top = FORMAT_MAX[name]
    size = v.abs() + 2.0 * r
    if partial is not None:
        size = torch.maximum(size, partial * 1.001)
    reach = torch.isfinite(v) & (size >= top)
    if op is not None and bool((reach & torch.isfinite(r)).any()):
        flag(overflow_flag(op, name, reach & torch.isfinite(r), v, top))
    return torch.where(reach, torch.full_like(r, INF), r)


def overflow_flag(op: str, fmt: str, reach: torch.Tensor, v: torch.Tensor, top: float) -> str:
    """"x * x overflows float16 at 2 element(s), first (0, 3) (value 71000, largest
    finite 65504)": where ``op``'s ball reaches ``top``; "may overflow" when at the first
    such element only its radius or a partial sum reaches it."""
    index = tuple(int(i) for i in reach.nonzero()[0])
    value = float(v[index])
    verb = "overflows" if abs(value) >= top else "may overflow"
    return (f"{op} {verb} {fmt} at {int(reach.sum())} element(s), first {index} "
            f"(value {value:.6g}, largest finite {top:g})")


def is_overflow_flag(text: str) -> bool:
    """Whether a flag of the ball evaluation is an ``overflow_flag``."""
    return " overflows " in text or " may overflow " in text


def keep_exact_inf(v: torch.Tensor, r: torch.Tensor, *operands, op: str | None = None
                   ) -> torch.Tensor:
    """An infinite result that came from an exact infinite operand is exact; any other
    non-finite value or radius means no bound (``op``: see ``no_overflow``)."""
    from_exact = torch.zeros_like(v, dtype=torch.bool)
    for b in operands:
        from_exact = from_exact | torch.broadcast_to(is_exact_inf(b), v.shape)
    finite_radii = torch.ones_like(from_exact)
    for b in operands:
        finite_radii = finite_radii & torch.broadcast_to(torch.isfinite(b.r), v.shape)
    exact = torch.isinf(v) & from_exact & finite_radii
    r = torch.where(exact, torch.zeros_like(r), r)
    r = torch.where(torch.isnan(v) | (torch.isinf(v) & ~exact), torch.full_like(r, INF), r)
    return no_overflow(v, r, op=op)

