"""Overflow by the stored format's rules (round to nearest), for the comparison and the
derived bound.

A result rounds to ±∞ in a format exactly when its magnitude reaches the format's
overflow threshold, max_finite + ulp(max_finite)/2 = 2^emax·(2 − u) (65520 for
float16). So a kernel output stored as ±∞ is correct where the exact value, widened by
the finite part of its bound (the kernel's error before the final rounding), reaches
that threshold, and the infinity has the exact value's sign (``accepted``). An infinity
of the wrong sign, or where the widened exact value stays below the threshold, fails.

The output cast's error u_out|ŷ| + η_out is taken on finite stored values only
(``cast_error``): an infinite ŷ has no finite rounding error, and the comparison judges
it by the rule above.

An intermediate that overflows in the compute format while the exact result is finite
(x·x of a float16 value held in float16) is not a correct infinity: the ball evaluation
flags it (``radius_rounding.no_overflow``) and ``intermediate_notes`` names it for a
failing case; when the compute format has no such overflow, the reference is evaluated
once more in the kernel's input format to name the intermediate a kernel computing there
would overflow.

Not covered: directed rounding (round toward zero saturates at max_finite instead), and
formats without infinities (the float8 formats): their outputs are compared as if every
overflow were an error.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Mapping

import torch

from impls.numerics import cast_error as rounding_error, format_name, unit_roundoff
from verify.certification.radius_rounding import is_overflow_flag

EMAX = {"float64": 1023, "float32": 127, "tf32": 127, "float16": 15, "bfloat16": 127}


def threshold(fmt: str | torch.dtype) -> float:
    """The smallest magnitude that rounds to ∞ in ``fmt`` under round to nearest."""
    name = format_name(fmt)
    if name == "float64":
        return math.inf  # 2^1024: no float64 oracle value reaches it
    return math.ldexp(2.0 - unit_roundoff(name), EMAX[name])


def stored_format(value: Any) -> str | None:
    """The format a kernel stored ``value`` in: the name of a floating-point tensor's
    dtype (``float16``), else None (an integer tensor, a number)."""
    if isinstance(value, torch.Tensor) and value.is_floating_point():
        return str(value.dtype).replace("torch.", "")
    return None


def cast_error(y_hat: torch.Tensor, fmt: str) -> torch.Tensor:
    """u_out|ŷ| + η_out where the stored ŷ is finite, 0 where it is ±∞ (see the module
    docstring: the comparison decides whether that infinity is a correct overflow)."""
    err = rounding_error(y_hat, fmt)
    return torch.where(torch.isinf(err), torch.zeros_like(err), err)


def accepted(out: torch.Tensor, exact: torch.Tensor, bound: torch.Tensor,
             fmt: str | None) -> torch.Tensor:
    """Where ``out`` (float64 copy of an output stored in ``fmt``) is an infinity the
    format's rounding gives the exact value: same sign, and |exact| + the finite bound
    reaches ``threshold(fmt)``. All False without a format."""
    try:
        top = threshold(fmt) if fmt is not None else None
    except ValueError:  # a format this module does not know (float8): no infinity is right
        top = None
    if top is None:
        return torch.zeros_like(out, dtype=torch.bool)
    widened = exact.abs() + torch.where(torch.isfinite(bound), bound, torch.zeros_like(bound))
    return (torch.isinf(out) & torch.isfinite(exact)
            & (torch.sign(out) == torch.sign(exact)) & (widened >= top))


def intermediate_notes(outputs: Mapping[str, Any], values: Mapping[str, torch.Tensor],
                       formats: Mapping[str, str], flags: list[str],
                       narrower: Callable[[], list[str]] | None) -> list[str]:
    """Why a kernel output is ±∞ or NaN where the reference's value is finite and below
    the stored format's threshold: the compute format's overflow ``flags``, else those of
    ``narrower()`` (the reference evaluated in the input format), else a line saying no
    intermediate of the reference overflows. Empty where no such element exists."""
    where = []
    for key, value in values.items():
        out = outputs.get(key)
        if not (isinstance(out, torch.Tensor) and isinstance(value, torch.Tensor)) \
                or key not in formats:
            continue
        o = out.detach().to("cpu", torch.float64)
        if o.shape != value.shape:
            continue
        bad = ~torch.isfinite(o) & torch.isfinite(value) & (value.abs() < threshold(formats[key]))
        if bool(bad.any()):
            index = tuple(int(i) for i in bad.nonzero()[0])
            where.append(f"{key} is {float(o[index])} at {index} where the exact value is "
                         f"{float(value[index]):.6g}")
    if not where:
        return []
    found = [f for f in flags if is_overflow_flag(f)]
    if not found and narrower is not None:
        found = [f"in the input format, {f}" for f in narrower() if is_overflow_flag(f)]
    if not found:
        found = ["no intermediate of the reference overflows"]
    return where + found
