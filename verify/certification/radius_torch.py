"""The ``__torch_function__`` dispatch of balls: which torch function or tensor method
maps to which ball operation, with the argument conventions of torch (``torch.var``'s
``unbiased``/``correction``, ``torch.where``'s three arguments, ``dtype=`` ignored: the
model fixes the formats). Tensor methods the table maps work on balls too (``Ball``
forwards them: ``x.sigmoid()``, ``x.gather(-1, i)``).

A torch function absent from ``TORCH_TABLE`` raises NotImplementedError (no derived
bound) in ``Ball.__torch_function__``; nothing is guessed.
"""
from __future__ import annotations


import torch

from verify.certification.radius import (TORCH_TABLE, Ball, add, div, exp, lift, log,
                                         maximum, minimum, mul, rsqrt, sqrt, sub, where)
from verify.certification.radius_compose import (layer_norm, log_softmax, logsumexp,
                                                 rms_norm, softmax)
from verify.certification.radius_reduce import (amax, amin, cumsum, matmul, mean,
                                                reduce_sum, var)
from verify.certification.radius_special import erf, gelu, sigmoid, silu, tanh


def _stack(balls, dim=0):
    return Ball(torch.stack([lift(b).v for b in balls], dim),
                torch.stack([lift(b).r for b in balls], dim))


def _cat(balls, dim=0):
    return Ball(torch.cat([lift(b).v for b in balls], dim),
                torch.cat([lift(b).r for b in balls], dim))


def _gather(x, dim, index, **_):
    """Picking elements (a target class per row) is exact: the picked radii."""
    x = lift(x)
    return Ball(x.v.gather(dim, index), x.r.gather(dim, index))


def _reshape(x, *shape):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    return lift(x).reshape(*shape)


def _torch_where(cond, a=None, b=None):
    if a is None:
        raise NotImplementedError("torch.where(cond) with one argument")
    return where(cond, a, b)


def _torch_softmax(x, dim=-1, dtype=None, **_):
    return softmax(x, dim)


def _torch_log_softmax(x, dim=-1, dtype=None, **_):
    return log_softmax(x, dim)


def _torch_sum(x, dim=None, keepdim=False, **_):
    return reduce_sum(x, dim, keepdim)


def _torch_mean(x, dim=None, keepdim=False, **_):
    return mean(x, dim, keepdim)


def _torch_var(x, dim=None, unbiased=None, keepdim=False, correction=None, **_):
    corr = correction if correction is not None else (0 if unbiased is False else 1)
    return var(x, dim, keepdim, corr)


TORCH_TABLE.update({
    torch.exp: exp, torch.Tensor.exp: exp, torch.log: log, torch.Tensor.log: log,
    torch.sqrt: sqrt, torch.Tensor.sqrt: sqrt, torch.rsqrt: rsqrt, torch.Tensor.rsqrt: rsqrt,
    torch.add: add, torch.Tensor.add: add, torch.sub: sub, torch.Tensor.sub: sub,
    torch.mul: mul, torch.Tensor.mul: mul, torch.div: div, torch.Tensor.div: div,
    torch.maximum: maximum, torch.minimum: minimum, torch.where: _torch_where,
    torch.sum: _torch_sum, torch.Tensor.sum: _torch_sum,
    torch.mean: _torch_mean, torch.Tensor.mean: _torch_mean,
    torch.var: _torch_var, torch.Tensor.var: _torch_var,
    torch.amax: amax, torch.Tensor.amax: amax, torch.amin: amin, torch.Tensor.amin: amin,
    torch.matmul: matmul, torch.Tensor.matmul: matmul, torch.mm: matmul, torch.bmm: matmul,
    torch.cumsum: cumsum, torch.Tensor.cumsum: cumsum,
    torch.softmax: _torch_softmax, torch.nn.functional.softmax: _torch_softmax,
    torch.log_softmax: _torch_log_softmax,
    torch.nn.functional.log_softmax: _torch_log_softmax,
    torch.logsumexp: logsumexp, torch.abs: lambda x: lift(x).abs(),
    torch.square: lambda x: mul(x, x), torch.stack: _stack, torch.cat: _cat,
    torch.nn.functional.layer_norm: layer_norm,
    torch.nn.functional.rms_norm: rms_norm,
    torch.gather: _gather, torch.Tensor.gather: _gather,
    torch.reshape: _reshape, torch.Tensor.reshape: _reshape, torch.Tensor.view: _reshape,
    torch.sigmoid: sigmoid, torch.Tensor.sigmoid: sigmoid, torch.special.expit: sigmoid,
    torch.nn.functional.sigmoid: sigmoid, torch.nn.functional.silu: silu,
    torch.tanh: tanh, torch.Tensor.tanh: tanh, torch.nn.functional.tanh: tanh,
    torch.erf: erf, torch.Tensor.erf: erf, torch.special.erf: erf,
    torch.nn.functional.gelu: gelu,
})

