"""Derived error bounds: evaluate a reference with a rigorous error radius per value.

Running error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*,
ch. 2–4). A ``Ball`` is a float64 value tensor ``v`` and a radius tensor ``r`` with the
invariant: for the exact real result y of the reference on the given inputs,

    |ŷ − y| ≤ r   for every evaluation ŷ that follows the reference's formula in a
                  format with unit roundoff ≤ u (the model's compute format), and
    |v − y| ≤ r   (v itself is such an evaluation: float64 is finer than u).

So |y| ≤ |v| + r and |ŷ| ≤ |v| + 2r (``_mag``), |ŷ|, |y| ≥ |v| − 2r (``_low``).
Each operation propagates its operands' radii and adds its own rounding under the
standard model |δ| ≤ u; elementary functions add the relative errors stated in the
``Model`` (ulps of exp, log, sqrt, rsqrt, division; the GPU's exp also rounds its
argument times log₂e) and an underflow term. Reductions (sum, mean, dot, matmul,
cumsum) are bounded for EVERY order of evaluation: γ_d·Σ|xᵢ| with d the longest chain
of roundings any order can give an element (n − 1 for a sum of n terms), or the shorter
chain of a stated block structure (within a block of B, then across ⌈n/B⌉ blocks).
max/min are exact, so their radius is the largest operand radius. A comparison whose
operands' balls overlap may go either way in the kernel: ``where`` then takes a radius
covering both branches and the evaluation records a flag.

All bound arithmetic is float64 with each radius multiplied by 1 + 2⁻⁵⁰ and moved to
the next float64 upward (sums of n radii by 1 + (n + 2)·2⁻⁵²); NaN radii become ∞
(no bound). An exact infinity (radius 0, e.g. a −∞ mask) stays exact through the
operations that keep it so.

Not covered: a kernel that evaluates a *different formula* than the reference (an
online softmax's rescalings, Welford's merges, a FlashAttention running state add
roundings a composed reference does not have — bind those with the block structure or
a hand bound); overflow (an infinite radius, i.e. no bound); the float64 libm of the
host beyond the stated ulps.

Use: wrap inputs with ``Ball.input(x, dtype, model)`` and run the reference (written
with torch functions and tensor methods — ``torch.exp(b)``, ``b.sum(-1)``, ``b @ c`` —
dispatched here through ``__torch_function__``); or call ``evaluate``.
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

import torch

from verify.certification.bounds import (HALF_SUBNORMAL, SMALLEST_NORMAL, format_name,
                                         unit_roundoff)

F64 = torch.float64
INF = math.inf
_UP = 1.0 + 2.0 ** -50


# --------------------------------------------------------------------------- the model
# Relative error of each elementary function, in ulps (1 ulp ≤ 2u relative), by backend.
# Interpreter: numpy's float32 SIMD exp/log (documented ≤ 2.52 / 3.83 ulp; 4 taken),
# IEEE sqrt/division (division allowed a second rounding: reciprocal then multiply).
# GPU: ex2.approx / lg2.approx (with an absolute error near 1), sqrt.approx, rsqrt.approx,
# div.full (2 ulp), all taken at 4 ulp; exp's argument is rounded once more (× log₂e).
ULPS = {
    "triton-interpreter": {"exp": 4, "log": 4, "sqrt": 1, "rsqrt": 2, "div": 1},
    "gpu": {"exp": 4, "log": 4, "sqrt": 4, "rsqrt": 4, "div": 4},
    "host": {"exp": 2, "log": 2, "sqrt": 1, "rsqrt": 2, "div": 1},
}
LOG_ABS = {"triton-interpreter": 0.0, "gpu": 2.0 ** -21, "host": 0.0}


@dataclass(frozen=True)
class Model:
    """Formats and hardware assumptions of one evaluation.

    ``compute``: format of elementwise arithmetic and accumulation (a kernel upcasting
    fp16 inputs to fp32 has compute float32). ``block``: the reduction block length when
    the kernel reduces in blocks (None: any order of the whole dimension). ``dot_input``:
    "ieee" or "tf32" (``tl.dot`` on fp32 inputs on a GPU defaults to tf32).
    ``tensor_core``: accumulation unit roundoff taken as 2u (tensor cores may truncate).
    ``flush_to_zero``: underflow costs the smallest normal, else half a subnormal step."""

    compute: str = "float32"
    backend: str = "triton-interpreter"
    block: int | None = None
    dot_input: str = "ieee"
    tensor_core: bool = False
    flush_to_zero: bool = True
    ulps: Mapping[str, float] = field(default_factory=lambda: dict(ULPS["triton-interpreter"]))
    log_abs: float = 0.0

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
    return _MODEL[-1]


def _flag(text: str) -> None:
    if text not in _FLAGS[-1]:
        _FLAGS[-1].append(text)


# --------------------------------------------------------------------------- rounding up
def _up(x: torch.Tensor, terms: int = 1) -> torch.Tensor:
    """x ≥ 0 enlarged past the float64 error of its own evaluation; NaN → ∞; 0 stays 0."""
    x = torch.where(torch.isnan(x), torch.full_like(x, INF), x)
    scaled = x * (1.0 + (terms + 2) * 2.0 ** -52) if terms > 1 else x * _UP
    up = torch.nextafter(scaled, torch.full_like(x, INF))
    return torch.where(x == 0, x, up)


def _gamma(n: int, u: float) -> float:
    nu = n * u
    if nu >= 1.0:
        return INF
    return math.nextafter((nu / (1.0 - nu)) * _UP, INF) if n else 0.0


def _mag(b: "Ball") -> torch.Tensor:
    return b.v.abs() + 2.0 * b.r


def _low(b: "Ball") -> torch.Tensor:
    return b.v.abs() - 2.0 * b.r


def _exact_zero(b: "Ball") -> torch.Tensor:
    return (b.v == 0) & (b.r == 0)


def _exact_inf(b: "Ball") -> torch.Tensor:
    return torch.isinf(b.v) & (b.r == 0)


FORMAT_MAX = {"float64": torch.finfo(torch.float64).max, "float32": torch.finfo(torch.float32).max,
              "float16": 65504.0, "bfloat16": torch.finfo(torch.bfloat16).max,
              "tf32": torch.finfo(torch.float32).max}


def _no_overflow(v: torch.Tensor, r: torch.Tensor, fmt: str | None = None,
                 partial: torch.Tensor | None = None) -> torch.Tensor:
    """No bound (∞) where a finite value's ball — or ``partial``, a bound on every
    intermediate of a reduction (Σ|xᵢ| for a sum in any order) — reaches the format's
    overflow threshold: the kernel may have produced ±∞ there."""
    top = FORMAT_MAX[format_name(fmt or current().compute)]
    size = v.abs() + 2.0 * r
    if partial is not None:
        size = torch.maximum(size, partial * 1.001)
    reach = torch.isfinite(v) & (size >= top)
    return torch.where(reach, torch.full_like(r, INF), r)


def _keep_exact_inf(v: torch.Tensor, r: torch.Tensor, *operands: "Ball") -> torch.Tensor:
    """An infinite result that came from an exact infinite operand is exact; any other
    non-finite value or radius means no bound."""
    from_exact = torch.zeros_like(v, dtype=torch.bool)
    for b in operands:
        from_exact = from_exact | torch.broadcast_to(_exact_inf(b), v.shape)
    finite_radii = torch.ones_like(from_exact)
    for b in operands:
        finite_radii = finite_radii & torch.broadcast_to(torch.isfinite(b.r), v.shape)
    exact = torch.isinf(v) & from_exact & finite_radii
    r = torch.where(exact, torch.zeros_like(r), r)
    r = torch.where(torch.isnan(v) | (torch.isinf(v) & ~exact), torch.full_like(r, INF), r)
    return _no_overflow(v, r)


# --------------------------------------------------------------------------- decisions
@dataclass
class Decision:
    """A comparison of balls: ``value`` as float64 decides it, ``uncertain`` where the
    kernel's rounded operands might decide it the other way."""

    value: torch.Tensor
    uncertain: torch.Tensor

    def __and__(self, other):
        o = _decision(other)
        return Decision(self.value & o.value, self.uncertain | o.uncertain)

    def __or__(self, other):
        o = _decision(other)
        return Decision(self.value | o.value, self.uncertain | o.uncertain)

    def __invert__(self):
        return Decision(~self.value, self.uncertain)

    def __bool__(self):
        raise TypeError("a comparison of balls has no single truth value; use where()")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return Ball.__torch_function__(func, types, args, kwargs)


def _decision(x: Any) -> Decision:
    if isinstance(x, Decision):
        return x
    t = torch.as_tensor(x, dtype=torch.bool)
    return Decision(t, torch.zeros_like(t))


def _compare(a: "Ball", b: "Ball", op: str) -> Decision:
    va, vb = torch.broadcast_tensors(a.v, b.v)
    ra, rb = torch.broadcast_tensors(a.r, b.r)
    value = {"eq": va == vb, "ne": va != vb, "lt": va < vb, "le": va <= vb,
             "gt": va > vb, "ge": va >= vb}[op]
    both_exact = (ra == 0) & (rb == 0)
    gap = torch.where(va == vb, torch.zeros_like(va), (va - vb).abs())
    separated = gap > 2.0 * (ra + rb) * _UP
    return Decision(value, ~(both_exact | separated))


# --------------------------------------------------------------------------- the ball
class Ball:
    """A value with a rigorous error radius; see the module docstring."""

    __slots__ = ("v", "r")

    def __init__(self, v: torch.Tensor, r: torch.Tensor):
        self.v = v
        self.r = r

    # construction -------------------------------------------------------------------
    @staticmethod
    def input(x: torch.Tensor, dtype: str | torch.dtype | None = None) -> "Ball":
        """A kernel input: the master copy ``x`` (float64), stored in ``dtype`` by the
        kernel; the radius is the exact storage rounding."""
        v = x.detach().to("cpu", F64)
        if dtype is None:
            return Ball(v, torch.zeros_like(v))
        stored = v.to(getattr(torch, format_name(dtype))).to(F64)
        diff = torch.where(stored == v, torch.zeros_like(v), (stored - v).abs())
        return Ball(v, _keep_exact_inf(v, diff, Ball(v, torch.zeros_like(v))))

    @staticmethod
    def const(c: Any, like: torch.Tensor | None = None) -> "Ball":
        """A constant of the reference; the kernel holds it in the compute format."""
        v = torch.as_tensor(c, dtype=F64)
        stored = v.to(getattr(torch, current().compute)).to(F64)
        diff = torch.where((stored == v) | torch.isinf(v), torch.zeros_like(v),
                           (stored - v).abs())
        return Ball(v, diff)

    @property
    def shape(self):
        return self.v.shape

    def dim(self) -> int:
        return self.v.dim()

    def size(self, d: int | None = None):
        return self.v.size() if d is None else self.v.size(d)

    def __len__(self):
        return len(self.v)

    def __repr__(self):
        return f"Ball(v={self.v}, r={self.r})"

    # shape ops (exact) -------------------------------------------------------------
    def __getitem__(self, idx):
        return Ball(self.v[idx], self.r[idx])

    def reshape(self, *shape):
        return Ball(self.v.reshape(*shape), self.r.reshape(*shape))

    def unsqueeze(self, d):
        return Ball(self.v.unsqueeze(d), self.r.unsqueeze(d))

    def squeeze(self, d=None):
        return Ball(self.v.squeeze() if d is None else self.v.squeeze(d),
                    self.r.squeeze() if d is None else self.r.squeeze(d))

    def transpose(self, a, b):
        return Ball(self.v.transpose(a, b), self.r.transpose(a, b))

    @property
    def T(self):
        return Ball(self.v.T, self.r.T)

    def expand_as(self, other):
        return Ball(self.v.expand_as(_v(other)), self.r.expand_as(_v(other)))

    def float(self):
        return self

    def double(self):
        return self

    def to(self, *args, **kwargs):
        return self

    def contiguous(self):
        return self

    # arithmetic -----------------------------------------------------------------------
    def __neg__(self):
        return Ball(-self.v, self.r)

    def __pos__(self):
        return self

    def abs(self):
        return Ball(self.v.abs(), self.r)

    def __add__(self, o):
        return add(self, o)

    def __radd__(self, o):
        return add(o, self)

    def __sub__(self, o):
        return add(self, -lift(o))

    def __rsub__(self, o):
        return add(o, -self)

    def __mul__(self, o):
        return mul(self, o)

    def __rmul__(self, o):
        return mul(o, self)

    def __truediv__(self, o):
        return div(self, o)

    def __rtruediv__(self, o):
        return div(o, self)

    def __pow__(self, p):
        if p == 2:
            return mul(self, self)
        if p == 0.5:
            return sqrt(self)
        if p == -0.5:
            return rsqrt(self)
        if p == 1:
            return self
        raise NotImplementedError(f"power {p} has no derived bound (use 2, 0.5, -0.5)")

    def __matmul__(self, o):
        return matmul(self, o)

    def __rmatmul__(self, o):
        return matmul(o, self)

    def __eq__(self, o):  # type: ignore[override]
        return _compare(self, lift(o), "eq")

    def __ne__(self, o):  # type: ignore[override]
        return _compare(self, lift(o), "ne")

    def __lt__(self, o):
        return _compare(self, lift(o), "lt")

    def __le__(self, o):
        return _compare(self, lift(o), "le")

    def __gt__(self, o):
        return _compare(self, lift(o), "gt")

    def __ge__(self, o):
        return _compare(self, lift(o), "ge")

    __hash__ = None  # type: ignore[assignment]

    # methods mirroring torch ----------------------------------------------------------
    def exp(self):
        return exp(self)

    def log(self):
        return log(self)

    def sqrt(self):
        return sqrt(self)

    def rsqrt(self):
        return rsqrt(self)

    def square(self):
        return mul(self, self)

    def sum(self, dim=None, keepdim=False):
        return reduce_sum(self, dim, keepdim)

    def mean(self, dim=None, keepdim=False):
        return mean(self, dim, keepdim)

    def var(self, dim=None, keepdim=False, unbiased=False, correction=None):
        return var(self, dim, keepdim, 0 if correction is None and not unbiased
                   else (1 if correction is None else correction))

    def amax(self, dim=-1, keepdim=False):
        return amax(self, dim, keepdim)

    def amin(self, dim=-1, keepdim=False):
        return amin(self, dim, keepdim)

    def cumsum(self, dim):
        return cumsum(self, dim)

    def softmax(self, dim):
        return softmax(self, dim)

    def log_softmax(self, dim):
        return log_softmax(self, dim)

    def logsumexp(self, dim, keepdim=False):
        return logsumexp(self, dim, keepdim)

    def clamp(self, min=None, max=None):
        out = self
        if min is not None:
            out = maximum(out, min)
        if max is not None:
            out = minimum(out, max)
        return out

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        impl = TORCH_TABLE.get(func)
        if impl is None:
            name = getattr(func, "__name__", str(func))
            raise NotImplementedError(f"torch.{name} has no derived error bound")
        return impl(*args, **kwargs)


def _v(x: Any) -> torch.Tensor:
    return x.v if isinstance(x, Ball) else torch.as_tensor(x, dtype=F64)


def lift(x: Any) -> Ball:
    """A ball for ``x``: balls as they are, tensors and numbers as constants."""
    if isinstance(x, Ball):
        return x
    return Ball.const(x.detach().to("cpu", F64) if isinstance(x, torch.Tensor) else x)


# --------------------------------------------------------------------------- elementwise
def add(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    u = current().u
    v = a.v + b.v
    prop = a.r + b.r
    r = _up(prop + u * (v.abs() + 2.0 * prop))
    return Ball(v, _keep_exact_inf(v, r, a, b))


def sub(a: Any, b: Any) -> Ball:
    return add(a, -lift(b))


def mul(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    m = current()
    v = a.v * b.v
    ma, mb = _mag(a), _mag(b)
    zero = _exact_zero(a) | _exact_zero(b)
    r = ma * b.r + (b.v.abs() + b.r) * a.r + m.u * ma * mb + m.eta
    r = torch.where(zero, torch.zeros_like(r), r)
    return Ball(v, _keep_exact_inf(v, _up(r), a, b))


def div(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    m = current()
    v = a.v / b.v
    low = _low(b)
    ma = _mag(a)
    safe = torch.where(low > 0, low, torch.ones_like(low))
    r = a.r / safe + ma * b.r / (safe * safe) + m.rel("div") * ma / safe + m.eta
    r = torch.where(low > 0, r, torch.full_like(r, INF))
    r = torch.where(_exact_zero(a) & (low > 0), torch.zeros_like(r), r)
    return Ball(v, _keep_exact_inf(v, _up(r), a, b))


def exp(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.exp(a.v)
    rho = a.r + m.exp_arg_rel * _mag(a)
    rho = torch.where(_exact_inf(a), torch.zeros_like(rho), rho)
    top = torch.exp(a.v + a.r)
    r = top * torch.expm1(rho) + m.rel("exp") * torch.exp(a.v + a.r + rho) + m.eta
    r = torch.where(torch.isneginf(a.v) & (a.r == 0), torch.zeros_like(r), r)
    return Ball(v, _keep_exact_inf(v, _up(r), a))


def log(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.log(a.v)
    low = _low(a)
    safe = torch.where(low > 0, low, torch.ones_like(low))
    biggest = torch.maximum(torch.log(safe).abs(), torch.log(_mag(a).clamp(min=1e-300)).abs())
    r = a.r / safe + m.rel("log") * biggest + m.log_abs
    r = torch.where(low > 0, r, torch.full_like(r, INF))
    r = torch.where(_exact_zero(a) | _exact_inf(a), torch.zeros_like(r), r)
    return Ball(v, _keep_exact_inf(v, _up(r), a))


def sqrt(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.sqrt(a.v)
    low = _low(a).clamp(min=0.0)
    by_slope = torch.where(low > 0, a.r / (2.0 * torch.sqrt(low)), torch.full_like(low, INF))
    r = torch.minimum(by_slope, torch.sqrt(a.r)) + m.rel("sqrt") * torch.sqrt(_mag(a)) + m.eta
    negative = a.v - 2.0 * a.r < 0
    if bool(negative.any()):
        _flag("sqrt of a value whose ball reaches below 0 (the kernel may compute NaN)")
    r = torch.where(_exact_zero(a), torch.zeros_like(r), r)
    return Ball(v, _keep_exact_inf(v, _up(r), a))


def rsqrt(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.rsqrt(a.v)
    low = _low(a)
    safe = torch.where(low > 0, low, torch.ones_like(low))
    r = a.r / (2.0 * safe * torch.sqrt(safe)) + m.rel("rsqrt") / torch.sqrt(safe) + m.eta
    r = torch.where(low > 0, r, torch.full_like(r, INF))
    return Ball(v, _no_overflow(v, _up(r)))


def maximum(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    return Ball(torch.maximum(a.v, b.v), torch.maximum(*torch.broadcast_tensors(a.r, b.r)))


def minimum(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    return Ball(torch.minimum(a.v, b.v), torch.maximum(*torch.broadcast_tensors(a.r, b.r)))


def where(cond: Any, a: Any, b: Any) -> Ball:
    """Branch on the float64 values; where the decision is uncertain the radius covers
    both branches and a flag is raised."""
    d = _decision(cond)
    a, b = lift(a), lift(b)
    v = torch.where(d.value, a.v, b.v)
    r = torch.where(d.value, a.r, b.r)
    if bool(d.uncertain.any()):
        _flag(f"{int(d.uncertain.sum())} branch decision(s) straddle the branch point")
        gap = torch.where(a.v == b.v, torch.zeros_like(v), (a.v - b.v).abs())
        both = _up(gap + 2.0 * (a.r + b.r), 3)
        r = torch.where(d.uncertain, torch.maximum(r, both), r)
    return Ball(v, r)


# --------------------------------------------------------------------------- reductions
def _dims(x: Ball, dim) -> tuple[int, ...]:
    if dim is None:
        return tuple(range(x.v.dim()))
    return tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


def reduce_sum(x: Any, dim=None, keepdim: bool = False) -> Ball:
    """Σ in any order: Σrᵢ + γ_d·Σ(|vᵢ| + 2rᵢ), d the model's depth for n terms."""
    x = lift(x)
    dims = _dims(x, dim)
    n = math.prod(x.v.shape[d] for d in dims) if dims else 1
    v = x.v.sum(dim=dims, keepdim=keepdim) if dims else x.v
    if not dims:
        return x
    g = _gamma(current().depth(n), current().u)
    finite = torch.isfinite(x.v)
    zero = torch.zeros_like(x.r)
    total = torch.where(finite, _mag(x), zero).sum(dim=dims, keepdim=keepdim)
    r = torch.where(finite, x.r, zero).sum(dim=dims, keepdim=keepdim) + g * total
    r = _reduced_inf(v, _up(r, n), x, dims, keepdim)
    return Ball(v, _no_overflow(v, r, partial=total))


def _reduced_inf(v: torch.Tensor, r: torch.Tensor, x: Ball, dims, keepdim: bool
                 ) -> torch.Tensor:
    """Radius of a reduction's result where it is infinite: exact when every infinite
    term is exact and every radius finite, else no bound."""
    inexact_inf = (torch.isinf(x.v) & (x.r != 0)).any(dim=dims, keepdim=keepdim)
    bad_r = (~torch.isfinite(x.r)).any(dim=dims, keepdim=keepdim)
    r = torch.where(torch.isinf(v) & ~inexact_inf, torch.zeros_like(r), r)
    r = torch.where(torch.isnan(v) | bad_r | (torch.isinf(v) & inexact_inf),
                    torch.full_like(r, INF), r)
    return _no_overflow(v, r)


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
    and 2u tensor-core accumulation when the model says so."""
    a, b = lift(a), lift(b)
    m = current()
    k = a.v.shape[-1]
    v = a.v @ b.v
    ma, mb = _mag(a), _mag(b)
    u = 2.0 * m.u if m.tensor_core else m.u
    g = _gamma(m.depth(k) + 1, u)
    if m.dot_input == "tf32":
        e = unit_roundoff("tf32") * 2.0  # truncation as well as rounding
        g = (1.0 + e) ** 2 * (1.0 + g) - 1.0
    big = ma @ mb
    r = ma @ b.r + a.r @ (b.v.abs() + b.r) + g * big + 2 * k * m.eta
    return Ball(v, _no_overflow(v, _up(r, k), partial=big))


def cumsum(x: Any, dim: int) -> Ball:
    """Inclusive prefix sums in any scan order; element i has at most min(i, B + i//B)
    roundings (B the block when one is given)."""
    x = lift(x)
    m = current()
    dim = dim % x.v.dim()
    n = x.v.shape[dim]
    idx = torch.arange(n, dtype=F64)
    depth = idx if m.block is None else torch.minimum(idx, m.block + torch.floor(idx / m.block))
    nu = depth * m.u
    g = torch.where(nu < 1, nu / (1 - nu), torch.full_like(nu, INF)) * _UP
    shape = [1] * x.v.dim()
    shape[dim] = n
    v = x.v.cumsum(dim)
    total = _mag(x).cumsum(dim)
    r = x.r.cumsum(dim) + g.reshape(shape) * total
    return Ball(v, _no_overflow(v, torch.where(torch.isfinite(v), _up(r, n),
                                               torch.full_like(r, INF)), partial=total))


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
    s = torch.broadcast_to(_mag(h), av[0].shape).clone()
    d = torch.broadcast_to(h.r, av[0].shape).clone()
    vs, rs = [], []
    for t in range(av.shape[0]):
        hv = av[t] * hv + bv[t]
        d = _up(ma[t] * d + ar[t] * s + br[t], 3)
        s = _up(ma[t] * s + mb[t], 3)
        vs.append(hv)
        rs.append(_up(d + _gamma(2 * t + 1, m.u) * s + (t + 1) * m.eta, 3))
    v, r = torch.stack(vs), torch.stack(rs)
    return Ball(torch.movedim(v, 0, dim), torch.movedim(_no_overflow(v, r), 0, dim))


# --------------------------------------------------------------------------- compositions
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


def cast(x: Ball, fmt: str | torch.dtype) -> Ball:
    """The output rounded to ``fmt`` (round to nearest): + u_out(|v| + 2r) + η_out."""
    name = format_name(fmt)
    if name == "float64":
        return x
    u = unit_roundoff(name)
    extra = u * _mag(x) + HALF_SUBNORMAL[name]
    r = torch.where(_exact_inf(x) | _exact_zero(x), x.r, _up(x.r + extra, 3))
    return Ball(x.v, _no_overflow(x.v, r, name))


def _stack(balls, dim=0):
    return Ball(torch.stack([lift(b).v for b in balls], dim),
                torch.stack([lift(b).r for b in balls], dim))


def _cat(balls, dim=0):
    return Ball(torch.cat([lift(b).v for b in balls], dim),
                torch.cat([lift(b).r for b in balls], dim))


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


def _torch_rms_norm(x, normalized_shape, weight=None, eps=None):
    eps = eps if eps is not None else torch.finfo(torch.float32).eps
    y = x * rsqrt(mean(mul(x, x), -1, keepdim=True) + eps)
    return y if weight is None else y * weight


def _torch_layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    d = x - mean(x, -1, keepdim=True)
    y = d * rsqrt(mean(d * d, -1, keepdim=True) + eps)
    y = y if weight is None else y * weight
    return y if bias is None else y + bias


TORCH_TABLE: dict[Callable, Callable] = {
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
    torch.nn.functional.layer_norm: _torch_layer_norm,
    torch.nn.functional.rms_norm: _torch_rms_norm,
}


# --------------------------------------------------------------------------- evaluate
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
    with using(model) as flags:
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


def with_block(model: Model, block: int | None) -> Model:
    return replace(model, block=block)
