"""Comparing one output with its oracle: the componentwise error, ρ = error / bound, and
exact equality for outputs that must match bit for bit (indices, exact kernels).

A float output passes when ρ = max(error / bound) ≤ 1 (0/0 counts as 0; an error over a
zero bound is ρ = ∞) and it is NaN exactly where the oracle is; an exact output passes
when every element equals the oracle's, −0.0 told apart from +0.0.

Overflow follows the output's stored format (the dtype of the tensor the kernel
returned): an element stored as ±∞ where the exact value, widened by its bound, reaches
that format's overflow threshold with the same sign is correct (error 0, counted in
``overflow_to_inf``); any other infinity where the exact value is finite has error ∞
(overflow.py).
"""
from __future__ import annotations

import math
from typing import Any

import torch

from verify.certification.overflow import accepted, stored_format


def _as_cpu64(value: Any) -> torch.Tensor:
    t = value if isinstance(value, torch.Tensor) else torch.as_tensor(value)
    return t.detach().to("cpu", torch.float64)


def compare_float(out: Any, oracle: Any, bound: Any, fmt: str | None = None) -> dict:
    """Componentwise error and ρ of one float output stored in ``fmt`` (default: the
    format of ``out`` itself, read before it is widened); see the module docstring."""
    fmt = fmt or stored_format(out)
    o, r = _as_cpu64(out), _as_cpu64(oracle)
    if o.shape != r.shape:
        return {"ok": False, "rho": math.inf, "max_error": math.inf, "max_bound": None,
                "problem": f"shape {tuple(o.shape)} but oracle has {tuple(r.shape)}"}
    b = torch.broadcast_to(_as_cpu64(bound), r.shape)
    if bool(torch.isnan(b).any()) or bool((b < 0).any()):
        return {"ok": False, "rho": math.inf, "max_error": None, "max_bound": None,
                "problem": "bound is NaN or negative"}
    err, nan_mismatch, overflowed = _errors(o, r, b, fmt)
    ratio = _ratios(err, b)
    rho = float(ratio.max()) if ratio.numel() else 0.0
    finite_r = torch.isfinite(r) & (r != 0)
    rel = (err[finite_r] / r[finite_r].abs()) if bool(finite_r.any()) else err.new_zeros(0)
    worst = int(ratio.flatten().argmax()) if ratio.numel() else None
    finite_b = b[torch.isfinite(b)]
    out_of_range = {"overflow_to_inf": int(overflowed.sum())} if bool(overflowed.any()) else {}
    return {
        "ok": rho <= 1.0 and not bool(nan_mismatch.any()),
        "rho": rho,
        "max_error": float(err.max()) if err.numel() else 0.0,
        "max_bound": float(finite_b.max()) if finite_b.numel() else None,
        "max_relative_error": float(rel.max()) if rel.numel() else 0.0,
        "nan_mismatches": int(nan_mismatch.sum()),
        "worst_index": (list(torch.unravel_index(torch.tensor(worst), r.shape))
                        if worst is not None and r.dim() else None),
        "elements": r.numel(),
        **out_of_range,
    }


def element_errors(out: Any, oracle: Any, bound: Any,
                   fmt: str | None = None) -> tuple[torch.Tensor, torch.Tensor] | None:
    """(error, bound) of every element as ``compare_float`` measures them, float64 in the
    oracle's shape; None where it reports a problem instead (shapes differ, a bound is
    NaN or negative)."""
    fmt = fmt or stored_format(out)
    o, r = _as_cpu64(out), _as_cpu64(oracle)
    if o.shape != r.shape:
        return None
    b = torch.broadcast_to(_as_cpu64(bound), r.shape)
    if bool(torch.isnan(b).any()) or bool((b < 0).any()):
        return None
    return _errors(o, r, b, fmt)[0], b


def _errors(o: torch.Tensor, r: torch.Tensor, b: torch.Tensor,
            fmt: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The error per element (0 where equal, both NaN or a correct overflow; ∞ where
    exactly one is NaN), where exactly one is NaN, and the correct overflows."""
    o_nan, r_nan = torch.isnan(o), torch.isnan(r)
    same = (o == r) | (o_nan & r_nan)
    overflowed = accepted(o, r, b, fmt)
    err = torch.where(same | overflowed, torch.zeros_like(o), (o - r).abs())
    nan_mismatch = o_nan ^ r_nan
    err = torch.where(nan_mismatch, torch.full_like(err, math.inf), err)
    return err, nan_mismatch, overflowed


def _ratios(err: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """error / bound per element: 0/0 is 0, an error over a zero bound and ∞ are ∞."""
    return torch.where(err == 0, torch.zeros_like(err),
                       torch.where(torch.isinf(err) | (b == 0),
                                   torch.full_like(err, math.inf), err / b))


def compare_exact(out: Any, oracle: Any) -> dict:
    o = out if isinstance(out, torch.Tensor) else torch.as_tensor(out)
    r = oracle if isinstance(oracle, torch.Tensor) else torch.as_tensor(oracle)
    o, r = o.detach().cpu(), r.detach().cpu()
    if o.shape != r.shape:
        return {"ok": False, "mismatches": None,
                "problem": f"shape {tuple(o.shape)} but oracle has {tuple(r.shape)}"}
    if o.is_floating_point() or r.is_floating_point():
        o64, r64 = o.to(torch.float64), r.to(torch.float64)
        same_sign = torch.signbit(o64) == torch.signbit(r64)  # −0.0 is not +0.0 here
        equal = ((o64 == r64) & same_sign) | (torch.isnan(o64) & torch.isnan(r64))
    else:
        equal = o.to(torch.int64) == r.to(torch.int64)
    mismatches = int((~equal).sum())
    return {"ok": mismatches == 0, "mismatches": mismatches, "elements": r.numel()}
