"""Special functions on balls: sigmoid, tanh and erf, and the activations kernels build
from them, silu = x·sigmoid(x) and gelu (erf form, or torch's tanh approximation).

Propagation. For f with |f'| ≤ M on [v − 2r, v + 2r] (an interval holding every exact
argument x and every kernel argument x̂), |f(x̂) − f(x)| ≤ M·r and |f(v) − f(x)| ≤ M·r.
Each derivative here (σ' = σ(1 − σ), tanh' = 1 − tanh², erf' = (2/√π)·exp(−t²)) is
even and falls as |t| grows, so M is its value at t₀ = max(|v| − 2r, 0); each function
is odd or monotone, so its largest magnitude on the ball is at |v| + 2r.

Rounding (the model's figures: e_exp, e_div, e_tanh, e_erf from ``radius_model.ULPS``,
a = the GPU's relative error in exp's argument, u, η):
- sigmoid as tl.sigmoid defines it, 1/(1 + exp(−x)), or the stable exp(x)/(1 + exp(x)):
  with X = |v| + 2r and κ = exp(a·X)(1 + e_exp) − 1 bounding exp's relative error, the
  result errs by at most (1 + e_div)(1 + κ)/((1 − κ)(1 − u)) − 1 relatively (∞ once
  κ ≥ 1), plus 2η (a flushed exp, a flushed result); where exp(−x) may overflow the
  compute format (−(v − 2r) ≥ ln(max) − 1) the kernel gets 0, an error of at most σ.
- tanh from a library (relative error e_tanh) or written with exp, as kernels must in
  the interpreter: 2σ(2x) − 1 or (1 − e^(−2x))/(1 + e^(−2x)). Their error is at most
  (e_tanh + e_div + 2u)·|tanh| + 2·(sigmoid's relative error at 2X) + 2η, plus 2σ(−2t₀)
  where exp(2|x|) may overflow (the kernel's ±1 is then that close).
- erf from a library: relative error e_erf, plus η.
An exact ±∞ argument gives the exact limit (0 or 1, ±1).

Not covered: other formulations — a polynomial or rational gelu or erf, a tanh by exp2
with a hand-rounded constant, an approximate instruction (tanh.approx.f32, 2⁻¹¹), gelu's
argument divided by √2 rather than multiplied by 1/√2.
"""
from __future__ import annotations

import math
from typing import Any

import torch

from verify.certification.radius import Ball, lift
from verify.certification.radius_model import Model, current
from verify.certification.radius_rounding import (FORMAT_MAX, INF, is_exact_inf,
                                                  magnitude, round_up)

TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
SQRT1_2 = math.sqrt(0.5)
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_TANH_CUBIC = 0.044715


def _nearest_zero(a: Ball) -> torch.Tensor:
    """t₀: the smallest magnitude on the ball."""
    return (a.v.abs() - 2.0 * a.r).clamp(min=0.0)


def _largest(a: Ball) -> torch.Tensor:
    return magnitude(a)


def _may_overflow_exp(arg: torch.Tensor, m: Model) -> torch.Tensor:
    """exp(arg) may reach the compute format's largest value (a margin of 1 for exp's
    own error and its argument's rounding)."""
    return arg >= math.log(FORMAT_MAX[m.compute]) - 1.0


def sigmoid_relative_error(size: torch.Tensor, m: Model | None = None) -> torch.Tensor:
    """Relative error of a sigmoid evaluated by exp and one division, for arguments of
    magnitude at most ``size``; see the module docstring."""
    m = m or current()
    kappa = torch.exp(m.exp_arg_rel * size) * (1.0 + m.rel("exp")) - 1.0
    rel = (1.0 + m.rel("div")) * (1.0 + kappa) / ((1.0 - kappa) * (1.0 - m.u)) - 1.0
    return torch.where(kappa < 1.0, rel, torch.full_like(rel, INF))


def _finish(a: Ball, v: torch.Tensor, r: torch.Tensor) -> Ball:
    """Exact at an exact infinite argument; no bound at NaN or an unbounded radius."""
    r = torch.where(is_exact_inf(a), torch.zeros_like(r), round_up(r, 4))
    return Ball(v, torch.where(torch.isnan(v) | torch.isnan(a.r), torch.full_like(r, INF), r))


def sigmoid(x: Any) -> Ball:
    a = lift(x)
    m = current()
    v = torch.sigmoid(a.v)
    s0 = torch.sigmoid(_nearest_zero(a))
    top = torch.sigmoid(a.v + 2.0 * a.r)   # σ increases: its largest value on the ball
    r = a.r * (s0 * (1.0 - s0)) + sigmoid_relative_error(_largest(a), m) * top + 2.0 * m.eta
    r = r + torch.where(_may_overflow_exp(-(a.v - 2.0 * a.r), m), top, torch.zeros_like(top))
    return _finish(a, v, r)


def tanh(x: Any) -> Ball:
    a = lift(x)
    m = current()
    v = torch.tanh(a.v)
    t0 = _nearest_zero(a)
    top = torch.tanh(_largest(a))
    rel = m.rel("tanh") + m.rel("div") + 2.0 * m.u
    r = (a.r * (1.0 - torch.tanh(t0) ** 2) + rel * top
         + 2.0 * sigmoid_relative_error(2.0 * _largest(a), m) + 2.0 * m.eta)
    near_one = 2.0 * torch.sigmoid(-2.0 * t0)
    r = r + torch.where(_may_overflow_exp(2.0 * _largest(a), m), near_one,
                        torch.zeros_like(near_one))
    return _finish(a, v, r)


def erf(x: Any) -> Ball:
    a = lift(x)
    m = current()
    v = torch.erf(a.v)
    slope = TWO_OVER_SQRT_PI * torch.exp(-_nearest_zero(a) ** 2)
    r = a.r * slope + m.rel("erf") * torch.erf(_largest(a)) + m.eta
    return _finish(a, v, r)


def silu(x: Any, inplace: bool = False) -> Any:
    """x·sigmoid(x) (also bounds x/(1 + exp(−x)): the same roundings, one product fewer).
    Written with torch operations, so it runs on tensors as well as balls."""
    return x * torch.sigmoid(x)


def gelu(x: Any, approximate: str = "none") -> Any:
    """torch's gelu spelled out: 0.5·x·(1 + erf(x·(1/√2))), or with approximate="tanh"
    0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). Written with torch operations, so it runs
    on tensors as well as balls (torch's own CPU F.gelu evaluates erf by a polynomial
    that errs by up to 7·10⁻⁷ in float32: not the formula bounded here)."""
    if approximate == "tanh":
        return 0.5 * x * (1.0 + torch.tanh(SQRT_2_OVER_PI * (x + GELU_TANH_CUBIC * (x * x * x))))
    if approximate == "none":
        return 0.5 * x * (1.0 + torch.erf(x * SQRT1_2))
    raise ValueError(f"gelu approximate={approximate!r} (known: 'none', 'tanh')")
