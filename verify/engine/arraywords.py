"""The torch and numpy readings of the vocabulary: values are tensors or arrays of one
floating dtype, computed as those libraries compute them. The rebinding that runs a
function under a reading is ``verify.engine.interp``.
"""
from __future__ import annotations

import math

from verify.engine.interp import Interpretation, Namespace, _numpy, variadic
from verify.engine.vocabulary import register, run_directly

# --------------------------------------------------------------------------- torch / numpy
def make_torch() -> Interpretation:
    """Values are float tensors of one dtype (batched); Python scalars keep the dtype."""
    import torch

    def maximum(a, b):
        return torch.maximum(*_tensors(a, b))

    def minimum(a, b):
        return torch.minimum(*_tensors(a, b))

    def where(c, a, b):
        if isinstance(c, bool):
            return a if c else b
        a, b = _tensors(a, b)
        return torch.where(c, a, b)

    def _unary(f):
        def g(x):
            if not isinstance(x, torch.Tensor):
                x = torch.tensor(x, dtype=torch.float64)
            return f(x)
        return g

    def vabs(x):
        return abs(x)

    unary = {n: _unary(getattr(torch, n)) for n in
             ("exp", "log", "sqrt", "tanh", "log1p", "expm1", "sin", "cos", "sigmoid")}
    tl = Namespace("tl", maximum=maximum, minimum=minimum, where=where, abs=vabs,
                   exp2=_unary(torch.exp2), log2=_unary(torch.log2),
                   fma=lambda a, b, c: a * b + c, **unary)
    mathns = Namespace("math", fabs=vabs, inf=math.inf, nan=math.nan, pi=math.pi, e=math.e,
                       trunc=_unary(torch.trunc),
                       isinf=_unary(torch.isinf), isnan=_unary(torch.isnan),
                       floor=_unary(torch.floor), ceil=_unary(torch.ceil),
                       copysign=lambda a, b: torch.copysign(*_tensors(a, b)),
                       hypot=lambda a, b: torch.hypot(*_tensors(a, b)),
                       pow=lambda a, b: torch.pow(*_tensors(a, b)), **unary)
    np = Namespace("np", fallback=_numpy(), maximum=maximum, minimum=minimum, where=where,
                   abs=vabs, logaddexp=lambda a, b: torch.logaddexp(*_tensors(a, b)),
                   clip=lambda x, lo, hi: torch.clamp(x, lo, hi),
                   trunc=_unary(torch.trunc), floor=_unary(torch.floor),
                   ceil=_unary(torch.ceil), square=_unary(torch.square),
                   inf=math.inf, nan=math.nan, isnan=_unary(torch.isnan),
                   fmax=lambda a, b: torch.fmax(*_tensors(a, b)),
                   fmin=lambda a, b: torch.fmin(*_tensors(a, b)), pi=math.pi, **unary)
    def py_max(a, b):  # Python's max: the first unless the second is greater
        a, b = _tensors(a, b)
        return torch.where(b > a, b, a)

    def py_min(a, b):
        a, b = _tensors(a, b)
        return torch.where(b < a, b, a)

    return Interpretation("torch", tl, mathns, {"max": variadic(py_max, max),
                                                "min": variadic(py_min, min), "abs": vabs},
                          np=np, torch=np)


def _tensors(a, b):
    import torch
    if isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
        b = torch.full_like(a, float(b))
    elif isinstance(b, torch.Tensor) and not isinstance(a, torch.Tensor):
        a = torch.full_like(b, float(a))
    elif not isinstance(a, torch.Tensor):
        a, b = torch.tensor(float(a)), torch.tensor(float(b))
    return a, b


def make_numpy() -> Interpretation:
    """Values are numpy arrays of one dtype (float16, float32, float64)."""
    import numpy

    def where(c, a, b):
        if isinstance(c, (bool, numpy.bool_)) and numpy.ndim(c) == 0:
            return a if c else b
        return numpy.where(c, a, b)

    unary = {n: getattr(numpy, n) for n in ("exp", "log", "sqrt", "tanh", "log1p", "expm1",
                                             "sin", "cos")}
    tl = Namespace("tl", maximum=numpy.maximum, minimum=numpy.minimum, where=where,
                   abs=numpy.abs, exp2=numpy.exp2, log2=numpy.log2,
                   fma=lambda a, b, c: a * b + c,
                   sigmoid=lambda x: 1 / (1 + numpy.exp(-x)), **unary)
    mathns = Namespace("math", fabs=numpy.abs, inf=math.inf, nan=math.nan, pi=math.pi,
                       e=math.e, isinf=numpy.isinf, isnan=numpy.isnan, **unary)
    def py_max(a, b):  # Python's max: the first unless the second is greater
        return numpy.where(b > a, b, a)

    def py_min(a, b):
        return numpy.where(b < a, b, a)

    return Interpretation("numpy", tl, mathns, {"max": variadic(py_max, max),
                                                "min": variadic(py_min, min),
                                                "abs": numpy.abs},
                          np=None, torch=None)


def _torch_sample():
    import torch
    return torch.tensor(7.0), run_directly


def _numpy_sample():
    import numpy
    return numpy.array(7.0), run_directly


register("torch", make_torch, _torch_sample,
         "torch tensors of one float dtype (float verdicts, references)")
register("numpy", make_numpy, _numpy_sample, "numpy arrays of one float dtype")
