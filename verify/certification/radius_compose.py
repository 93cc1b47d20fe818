"""Compositions on balls: softmax, log-sum-exp and log-softmax written as exp(x − max)/Σ,
the layer norm and RMSNorm of ``torch.nn.functional``, top-k values, each bounded by
composing the elementwise operations and reductions (so every reduction order is
covered).

Not covered: fused formulas a kernel may use instead (an online softmax's rescalings,
single-pass variance); bind those with a block model or a hand bound.
"""
from __future__ import annotations

from typing import Any

import torch

from verify.certification.radius import Ball, exp, lift, log, mul, register, rsqrt
from verify.certification.radius_reduce import amax, mean, reduce_sum


def softmax(x: Any, dim: int = -1) -> Ball:
    """exp(x − max)/Σexp(x − max); a fully masked row (all −∞) gives NaN like torch."""
    x = lift(x)
    e = exp(x - amax(x, dim, keepdim=True))
    return e / reduce_sum(e, dim, keepdim=True)


def logsumexp(x: Any, dim: int = -1, keepdim: bool = False) -> Ball:
    x = lift(x)
    mx = amax(x, dim, keepdim=True)
    out = mx + log(reduce_sum(exp(x - mx), dim, keepdim=True))
    return out if keepdim else out.squeeze(dim)


def log_softmax(x: Any, dim: int = -1) -> Ball:
    x = lift(x)
    return x - logsumexp(x, dim, keepdim=True)


def topk_values(x: Any, k: int, dim: int = -1) -> Ball:
    """The k largest values: order statistics move by at most the largest radius."""
    x = lift(x)
    vals = torch.topk(x.v, k, dim=dim).values
    r = x.r.amax(dim=dim, keepdim=True).expand_as(vals)
    return Ball(vals, r.clone())


def rms_norm(x, normalized_shape, weight=None, eps=None):
    """``torch.nn.functional.rms_norm`` over the last dimension: x·rsqrt(mean(x²) + eps)·w."""
    eps = eps if eps is not None else torch.finfo(torch.float32).eps
    y = x * rsqrt(mean(mul(x, x), -1, keepdim=True) + eps)
    return y if weight is None else y * weight


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """``torch.nn.functional.layer_norm`` over the last dimension, two-pass."""
    d = x - mean(x, -1, keepdim=True)
    y = d * rsqrt(mean(d * d, -1, keepdim=True) + eps)
    y = y if weight is None else y * weight
    return y if bias is None else y + bias


for _name, _fn in (("softmax", softmax), ("log_softmax", log_softmax), ("logsumexp", logsumexp)):
    register(_name, _fn)
