"""The model of one radius evaluation: formats, elementary-function ulps by backend,
reduction block structure, and the stack of models (``using``) with the flags raised
while a model is active.

Not covered here: the bound arithmetic itself (``radius_rounding``) and the operations
(``radius``, ``radius_reduce``, ``radius_compose``).
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from impls.accuracy import TRITON_GPU
from impls.numerics import (HALF_SUBNORMAL, SMALLEST_NORMAL, format_name,
                                         unit_roundoff)

# Relative error of each elementary function, in ulps (1 ulp ≤ 2u relative), by backend.
# Interpreter: numpy's float32 SIMD exp/log (documented ≤ 2.52 / 3.83 ulp; 4 taken),
# IEEE sqrt/division (division allowed a second rounding: reciprocal then multiply).
# GPU: the instructions Triton compiles each operation to (ex2.approx after × log₂e,
# libdevice logf, div.full, sqrt.approx.ftz, rsqrt.approx.ftz), with the errors the
# accuracy table gives them (impls/accuracy.py, from the PTX ISA); a kernel bound with
# this model declares that model (``GPU_MODEL``), and verify/hardware checks the PTX.
GPU_MODEL = TRITON_GPU


def _fp32_ulps(op: str) -> float:
    return GPU_MODEL[op].rel / (2.0 * unit_roundoff("float32"))


# tanh and erf (used by radius_special): on a GPU libdevice's tanhf and erff, documented
# within 2 ulp (CUDA C++ Programming Guide, Mathematical Functions) → 2 + ½; in the
# interpreter tl.erf is math.erf in float64 rounded to float32 (½ ulp + the double's own
# error: 1 taken), and tanh has no library call there (libdevice is not interpreted, a
# kernel writes it with exp, which radius_special's formulation term covers): 4 taken as
# for exp; on the host torch's tanh/erf (SLEEF 1-ulp in float32, glibc in float64, tanh
# ≤ 2 ulp): 3 and 2 taken.
LIBDEVICE_ULPS = 2.5
ULPS = {
    "triton-interpreter": {"exp": 4, "log": 4, "sqrt": 1, "rsqrt": 2, "div": 1,
                           "tanh": 4, "erf": 1},
    "gpu": {**{op: _fp32_ulps(op) for op in ("exp", "log", "sqrt", "rsqrt", "div")},
            "tanh": LIBDEVICE_ULPS, "erf": LIBDEVICE_ULPS},
    "host": {"exp": 2, "log": 2, "sqrt": 1, "rsqrt": 2, "div": 1, "tanh": 3, "erf": 2},
}
LOG_ABS = {"triton-interpreter": 0.0, "gpu": GPU_MODEL["log"].abs, "host": 0.0}


@dataclass(frozen=True)
class Model:
    """Formats and hardware assumptions of one evaluation.

    ``compute``: format of elementwise arithmetic and accumulation (a kernel upcasting
    fp16 inputs to fp32 has compute float32). ``block``: the reduction block length when
    the kernel reduces in blocks (None: any order of the whole dimension). ``dot_input``:
    "ieee" or "tf32" (``tl.dot`` on fp32 inputs on a GPU defaults to tf32).
    ``tensor_core``: accumulation unit roundoff taken as 2u (tensor cores may truncate).
    ``flush_to_zero``: underflow costs the smallest normal, else half a subnormal step.
    ``storage``: the format the kernel stores its inputs in (set by ``evaluate``; a
    reference rounding an intermediate to it uses ``radius.stored``)."""

    compute: str = "float32"
    backend: str = "triton-interpreter"
    block: int | None = None
    dot_input: str = "ieee"
    tensor_core: bool = False
    flush_to_zero: bool = True
    ulps: Mapping[str, float] = field(default_factory=lambda: dict(ULPS["triton-interpreter"]))
    log_abs: float = 0.0
    storage: str | None = None

    @property
    def u(self) -> float:
        return unit_roundoff(self.compute)

    def rel(self, fn: str) -> float:
        return 2.0 * self.ulps[fn] * self.u

    @property
    def exp_arg_rel(self) -> float:
        return 2.0 * self.u if self.backend == "gpu" else 0.0

    @property
    def eta(self) -> float:
        name = format_name(self.compute)
        return SMALLEST_NORMAL[name] if self.flush_to_zero else HALF_SUBNORMAL[name]

    def depth(self, n: int) -> int:
        """Longest chain of additions any evaluation order gives one of n terms."""
        if n <= 1:
            return 0
        if self.block is None or self.block >= n:
            return n - 1
        return (self.block - 1) + (math.ceil(n / self.block) - 1)

    def assumptions(self) -> dict:
        return {"compute": self.compute, "unit_roundoff": self.u, "backend": self.backend,
                "block": self.block, "dot_input_precision": self.dot_input,
                "tensor_core_accumulation": self.tensor_core,
                "flush_to_zero": self.flush_to_zero,
                "elementary_ulps": dict(self.ulps), "log_absolute_error": self.log_abs,
                "exp_argument_relative_error": self.exp_arg_rel,
                "reductions": "any order of evaluation" + (
                    f" within blocks of {self.block}, then across blocks"
                    if self.block else "")}


def model_for(backend: str, compute: str = "float32", **options: Any) -> Model:
    """The model of ``backend`` ("gpu", "triton-interpreter" or "host": torch on the CPU)."""
    key = "gpu" if backend in ("gpu", "cuda") else backend
    if key not in ULPS:
        key = "triton-interpreter"
    return Model(compute=format_name(compute), backend=key, ulps=dict(ULPS[key]),
                 log_abs=LOG_ABS[key], **options)


HOST64 = Model(compute="float64", backend="host", ulps=dict(ULPS["host"]), block=None)

_MODEL: list[Model] = [Model()]
_FLAGS: list[list[str]] = [[]]


@contextlib.contextmanager
def using(model: Model):
    """Evaluate under ``model``; collects the flags raised meanwhile."""
    _MODEL.append(model)
    _FLAGS.append([])
    try:
        yield _FLAGS[-1]
    finally:
        _MODEL.pop()
        _FLAGS.pop()


def current() -> Model:
    """The active model (the innermost ``using``)."""
    return _MODEL[-1]


def flag(text: str) -> None:
    """Record ``text`` once among the flags of the active model."""
    if text not in _FLAGS[-1]:
        _FLAGS[-1].append(text)


def with_block(model: Model, block: int | None) -> Model:
    """``model`` with reduction block length ``block`` (None: any order)."""
    return replace(model, block=block)
