"""Reductions on balls, bounded for every order of evaluation: sum, mean, two-pass
variance, max/min (exact: the largest operand radius), matmul, cumsum and the linear
recurrence h_t = a_t·h_{t−1} + b_t. A model's ``block`` shortens the rounding chain
(within a block, then across blocks); see ``Model.depth``.

Not covered: reductions evaluating another formula than the one written here (online
or Welford merges, compensated sums — those need their own bound).
"""
from __future__ import annotations

import math
from typing import Any

import torch

from impls.numerics import unit_roundoff
from verify.certification.radius import F64, Ball, div, lift, register
from verify.certification.radius_model import current
from verify.certification.radius_rounding import (INF, UP, gamma, magnitude, no_overflow,
                                                  round_up)


def _dims(x: Ball, dim) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(x.v.dim()))
    return tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


def reduce_sum(x: Any, dim=None, keepdim: bool = False) -> Ball:
    """Σ in any order: Σrᵢ + γ_d·Σ(|vᵢ| + 2rᵢ) + 2n·η, d the model's depth for n terms
    (η: a flushed leaf or partial sum, at most n of each)."""
    x = lift(x)
    dims = _dims(x, dim)
    n = math.prod(x.v.shape[d] for d in dims) if dims else 1
    v = x.v.sum(dim=dims, keepdim=keepdim) if dims else x.v
    if not dims:
        return x
    g = gamma(current().depth(n), current().u)
    finite = torch.isfinite(x.v)
    zero = torch.zeros_like(x.r)
    total = torch.where(finite, magnitude(x), zero).sum(dim=dims, keepdim=keepdim)
    r = (torch.where(finite, x.r, zero).sum(dim=dims, keepdim=keepdim) + g * total
         + 2 * n * current().eta)
    r = _reduced_inf(v, round_up(r, n), x, dims, keepdim)
    return Ball(v, no_overflow(v, r, partial=total, op="a sum"))


def _reduced_inf(v: torch.Tensor, r: torch.Tensor, x: Ball, dims, keepdim: bool
                 ) -> torch.Tensor:
    """Radius of a reduction's result where it is infinite: exact when every infinite
    term is exact and every radius finite, else no bound."""
    inexact_inf = (torch.isinf(x.v) & (x.r != 0)).any(dim=dims, keepdim=keepdim)
    bad_r = (~torch.isfinite(x.r)).any(dim=dims, keepdim=keepdim)
    r = torch.where(torch.isinf(v) & ~inexact_inf, torch.zeros_like(r), r)
    r = torch.where(torch.isnan(v) | bad_r | (torch.isinf(v) & inexact_inf),
                    torch.full_like(r, INF), r)
    return no_overflow(v, r)


def mean(x: Any, dim=None, keepdim: bool = False) -> Ball:
    x = lift(x)
    n = math.prod(x.v.shape[d] for d in _dims(x, dim))
    return div(reduce_sum(x, dim, keepdim), Ball.const(float(n)))


def var(x: Any, dim=None, keepdim: bool = False, correction: int = 0) -> Ball:
    """Two-pass variance Σ(x − mean)²/(n − correction)."""
    x = lift(x)
    n = math.prod(x.v.shape[d] for d in _dims(x, dim))
    d = x - mean(x, dim, keepdim=True)
    total = reduce_sum(d * d, dim, keepdim)
    return div(total, Ball.const(float(n - correction)))


def amax(x: Any, dim=-1, keepdim: bool = False) -> Ball:
    x = lift(x)
    return Ball(x.v.amax(dim=dim, keepdim=keepdim), x.r.amax(dim=dim, keepdim=keepdim))


def amin(x: Any, dim=-1, keepdim: bool = False) -> Ball:
    x = lift(x)
    return Ball(x.v.amin(dim=dim, keepdim=keepdim), x.r.amax(dim=dim, keepdim=keepdim))


def matmul(a: Any, b: Any) -> Ball:
    """C = AB for any order of each dot: |A|r_B + r_A(|B| + r_B) propagated, plus
    γ_d(u_acc)·|A||B| with d = model depth(K) + 1 (the product), tf32 operand rounding
    and 2u tensor-core accumulation when the model says so; exact (radius 0) where the
    dot is one of small integers (``_integer_dot``)."""
    a, b = lift(a), lift(b)
    m = current()
    k = a.v.shape[-1]
    v = a.v @ b.v
    ma, mb = magnitude(a), magnitude(b)
    u = 2.0 * m.u if m.tensor_core else m.u
    g = gamma(m.depth(k) + 1, u)
    if m.dot_input == "tf32":
        e = unit_roundoff("tf32") * 2.0  # truncation as well as rounding
        g = (1.0 + e) ** 2 * (1.0 + g) - 1.0
    big = ma @ mb
    r = ma @ b.r + a.r @ (b.v.abs() + b.r) + g * big + 2 * k * m.eta
    r = torch.where(_integer_dot(a, b, big, m), torch.zeros_like(r), r)
    return Ball(v, no_overflow(v, round_up(r, k), partial=big, op="a matmul"))


def _integer_dot(a: Ball, b: Ball, big: torch.Tensor, m) -> torch.Tensor:
    """Where C = AB is computed exactly: a row of A and a column of B that are exact
    integers with Σₖ|aᵢₖ||bₖⱼ| ≤ 1/u (every product and partial sum, in any order, is
    then an integer the accumulator holds exactly; tf32 operands also need |·| ≤ 2¹¹)."""
    def integers(x: Ball) -> torch.Tensor:
        ok = (x.r == 0) & torch.isfinite(x.v) & (x.v == torch.round(x.v))
        return ok & (x.v.abs() <= 2.0 ** 11) if m.dot_input == "tf32" else ok
    rows = integers(a).all(-1, keepdim=True)
    cols = integers(b).all(-2, keepdim=True)
    return rows & cols & (big <= 1.0 / m.u)


def cumsum(x: Any, dim: int) -> Ball:
    """Inclusive prefix sums in any scan order. Element i meets at most i roundings per
    leaf; with a block B (element i at position p of block j: the block scanned in any
    order, then a carry of the earlier blocks' totals added once) a leaf of its own
    block meets at most p + [j > 0] and a leaf of an earlier block at most B + j
    (B − 1 in its block's total, j in the fold of the totals, 1 for the carry). Each
    element also meets at most i + 1 leaves and i + 1 partial sums that a flush to
    zero may lose (η each)."""
    x = lift(x)
    m = current()
    dim = dim % x.v.dim()
    n = x.v.shape[dim]
    idx = torch.arange(n, dtype=F64)
    shape = [1] * x.v.dim()
    shape[dim] = n
    v = x.v.cumsum(dim)
    total = magnitude(x).cumsum(dim)
    if m.block is None:
        rounding = _gamma_of(idx).reshape(shape) * total
    else:
        j = torch.div(idx, m.block, rounding_mode="floor")
        own = torch.minimum(idx, idx - j * m.block + (j > 0).to(F64))
        early = torch.minimum(idx, m.block + j)
        start = (j * m.block - 1).to(torch.long)
        before = torch.index_select(total, dim, start.clamp(min=0))
        before = torch.where((start >= 0).reshape(shape), before, torch.zeros_like(before))
        rounding = (_gamma_of(own).reshape(shape) * (total - before)
                    + _gamma_of(early).reshape(shape) * before)
    r = x.r.cumsum(dim) + rounding + (2 * (idx + 1) * m.eta).reshape(shape)
    r = torch.where(torch.isfinite(v), round_up(r, n + 2), torch.full_like(r, INF))
    return Ball(v, no_overflow(v, r, partial=total, op="a prefix sum"))


def _gamma_of(depth: torch.Tensor) -> torch.Tensor:
    """γ_d(u) of the active model for a tensor of depths, rounded upward."""
    nu = depth * current().u
    return torch.where(nu < 1, nu / (1 - nu), torch.full_like(nu, INF)) * UP


def linear_recurrence(a: Any, b: Any, dim: int = -1, h0: Any = 0.0) -> Ball:
    """h_t = a_t·h_{t−1} + b_t along ``dim`` for any associative-scan order: each
    monomial (Πa)·b_j meets at most 2t + 1 roundings, so the rounding term is
    γ_{2t+1}·S_t with S_t = M(a_t)·S_{t−1} + M(b_t) ≥ Σ_j |Πa||b_j|; input radii are
    propagated as D_t = M(a_t)·D_{t−1} + r(a_t)·S_{t−1} + r(b_t)."""
    a, b, h = lift(a), lift(b), lift(h0)
    m = current()
    av, bv = torch.movedim(a.v, dim, 0), torch.movedim(b.v, dim, 0)
    ar, br = torch.movedim(a.r, dim, 0), torch.movedim(b.r, dim, 0)
    ma, mb = av.abs() + 2 * ar, bv.abs() + 2 * br
    hv = torch.broadcast_to(h.v, av[0].shape).clone()
    s = torch.broadcast_to(magnitude(h), av[0].shape).clone()
    d = torch.broadcast_to(h.r, av[0].shape).clone()
    vs, rs = [], []
    for t in range(av.shape[0]):
        hv = av[t] * hv + bv[t]
        d = round_up(ma[t] * d + ar[t] * s + br[t], 3)
        s = round_up(ma[t] * s + mb[t], 3)
        vs.append(hv)
        rs.append(round_up(d + gamma(2 * t + 1, m.u) * s + (t + 1) * m.eta, 3))
    v, r = torch.stack(vs), torch.stack(rs)
    return Ball(torch.movedim(v, 0, dim),
                torch.movedim(no_overflow(v, r, op="the linear recurrence"), 0, dim))


for _name, _fn in (("reduce_sum", reduce_sum), ("mean", mean), ("var", var), ("amax", amax),
                   ("amin", amin), ("matmul", matmul), ("cumsum", cumsum)):
    register(_name, _fn)
