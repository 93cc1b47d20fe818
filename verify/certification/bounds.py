"""Derived error bounds, the layer's front: the ball type with every operation
registered (radius.py and the modules that register into its dispatch table), the
hardware models, ``evaluate`` (a reference run on balls under a model) and the one
ball interpretation of the law vocabulary, used by the merge trees (trees.py) and the
float-law bounds (float_laws.py).

Import this module, not the ``radius*`` modules one by one: importing it is what
registers the reductions, compositions and torch functions with ``Ball``.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Callable, Mapping

import torch

from verify.certification import radius_compose, radius_reduce, radius_torch  # noqa: F401
from verify.certification.radius import Ball, cast, exp, lift, log, maximum, minimum
from verify.certification.radius import rsqrt, sqrt, where
from verify.certification.radius_model import HOST64, Model, model_for, using
from verify.engine.interp import Interpretation, Namespace, variadic
from verify.engine.vocabulary import register

__all__ = ["Ball", "HOST64", "Model", "ball_interpretation", "evaluate", "model_for"]


def _ball_abs(x: Any) -> Ball:
    return lift(x).abs()


def ball_interpretation() -> Interpretation:
    """The law vocabulary (``tl``, ``math``, builtins) on balls: each value carries a
    rigorous bound on the rounding error of the operations that produced it. Names
    outside it raise ``Unsupported``."""
    ops = dict(exp=exp, log=log, sqrt=sqrt, rsqrt=rsqrt, maximum=maximum, minimum=minimum,
               where=where)
    tl = Namespace("tl", abs=_ball_abs, fma=lambda a, b, c: a * b + c, **ops)
    mathns = Namespace("math", fabs=_ball_abs, inf=math.inf, pi=math.pi, e=math.e,
                       exp=exp, log=log, sqrt=sqrt)
    builtins_ = {"max": variadic(maximum, max), "min": variadic(minimum, min),
                 "abs": _ball_abs}
    return Interpretation("ball", tl, mathns, builtins_)


def _ball_sample() -> tuple[Ball, Callable]:
    def run(thunk):
        with using(HOST64):
            return thunk()
    return Ball.input(torch.tensor(7.0, dtype=torch.float64)), run


register("ball", ball_interpretation, _ball_sample,
         "balls: a float64 value and a rigorous bound on its rounding error (bounds)")


def evaluate(reference: Callable[..., Mapping[str, Any]], inputs: Mapping[str, Any],
             model: Model, in_dtype: str | None = None, params: Mapping[str, Any] | None = None,
             out_formats: Mapping[str, str] | None = None) -> tuple[dict, dict, list[str]]:
    """Run ``reference(**inputs, **params)`` on balls under ``model``.

    Float tensors become ``Ball.input`` in ``in_dtype`` (their storage rounding is the
    radius); each output is cast to ``out_formats[name]`` (default ``in_dtype``).
    Returns (values, radii, flags): float64 tensors per output, and the flags raised
    (straddled branches, square roots of balls reaching below 0)."""
    balls = {k: (Ball.input(x, in_dtype) if isinstance(x, torch.Tensor) and x.is_floating_point()
                 else x) for k, x in inputs.items()}
    with using(replace(model, storage=in_dtype)) as flags:
        out = reference(**balls, **(params or {}))
        values, radii = {}, {}
        for name, value in out.items():
            if not isinstance(value, Ball):
                values[name] = value
                continue
            fmt = (out_formats or {}).get(name, in_dtype or model.compute)
            ball = cast(value, fmt)
            values[name], radii[name] = ball.v, ball.r
        return values, radii, list(flags)

