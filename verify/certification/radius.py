"""Derived error bounds: evaluate a reference with a rigorous error radius per value.

Running error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*,
ch. 2–4). A ``Ball`` is a float64 value tensor ``v`` and a radius tensor ``r`` with the
invariant: for the exact real result y of the reference on the given inputs,

    |ŷ − y| ≤ r   for every evaluation ŷ that follows the reference's formula in a
                  format with unit roundoff ≤ u (the model's compute format), and
    |v − y| ≤ r   (v itself is such an evaluation: float64 is finer than u).

So |y| ≤ |v| + r and |ŷ| ≤ |v| + 2r (``_mag``), |ŷ|, |y| ≥ |v| − 2r (``_low``).
Each operation propagates its operands' radii and adds its own rounding under the
standard model |δ| ≤ u and an underflow term η (a result flushed to zero);
elementary functions add the relative errors stated in the ``Model`` (ulps of exp,
log, sqrt, rsqrt, division; the GPU's exp also rounds its argument times log₂e).
Reductions (sum, mean, dot, matmul, cumsum) are bounded for EVERY order of
evaluation: γ_d·Σ|xᵢ| with d the longest chain of roundings any order can give an
element (n − 1 for a sum of n terms), or the shorter chain of a stated block structure
(within a block of B, then across ⌈n/B⌉ blocks). An output stored in a format the
compute format fits in is not rounded again.
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
dispatched here through ``__torch_function__``); or call ``bounds.evaluate``.

Modules, each importing only those before it: ``radius_model`` (the Model, the model
stack), ``radius_rounding`` (bound arithmetic rounded upward), this module (Ball,
comparisons, elementwise operations, the output cast, the dispatch tables),
``radius_reduce`` (sum, mean, var, max/min, matmul, cumsum, linear recurrence),
``radius_compose`` (softmax, log-sum-exp, norms, top-k), ``radius_special`` (sigmoid,
tanh, erf), ``radius_torch`` (torch functions), the reference catalog
(``reference_ops``, ``references_nn``, ``references``), ``bounds`` (the front).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import torch

from impls.numerics import HALF_SUBNORMAL, format_name, unit_roundoff
from verify.certification.radius_model import (HOST64, LOG_ABS, ULPS, Model,  # noqa: F401
                                               current, flag, model_for, using, with_block)
from verify.certification.radius_rounding import (INF, UP, is_exact_inf, is_exact_zero,
                                                  keep_exact_inf, lower_magnitude,
                                                  magnitude, no_overflow, round_up)

F64 = torch.float64


# --------------------------------------------------------------------------- dispatch
# Reductions (radius_reduce.py), compositions (radius_compose.py) and torch functions
# (radius_torch.py) build on Ball and register here when they are imported; bounds.py,
# the layer's front, imports them all.
OPERATIONS: dict[str, Callable[..., Any]] = {}
TORCH_TABLE: dict[Callable, Callable] = {}


def register(name: str, fn: Callable[..., Any]) -> None:
    """Make ``fn`` what ``Ball.<name>`` (and the matching operator) calls."""
    OPERATIONS[name] = fn


def operation(name: str) -> Callable[..., Any]:
    try:
        return OPERATIONS[name]
    except KeyError:
        raise NotImplementedError(f"Ball.{name} is registered by verify.certification.bounds, "
                                  "which was not imported") from None


# --------------------------------------------------------------------------- decisions
@dataclass
class Decision:
    """A comparison of balls: ``value`` as float64 decides it, ``uncertain`` where the
    kernel's rounded operands might decide it the other way."""

    value: torch.Tensor
    uncertain: torch.Tensor

    def __and__(self, other):
        o = decision(other)
        return Decision(self.value & o.value, self.uncertain | o.uncertain)

    def __or__(self, other):
        o = decision(other)
        return Decision(self.value | o.value, self.uncertain | o.uncertain)

    def __invert__(self):
        return Decision(~self.value, self.uncertain)

    def __bool__(self):
        raise TypeError("a comparison of balls has no single truth value; use where()")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return Ball.__torch_function__(func, types, args, kwargs)


def decision(x: Any) -> Decision:
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
    separated = gap > 2.0 * (ra + rb) * UP
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
        return Ball(v, keep_exact_inf(v, diff, Ball(v, torch.zeros_like(v))))

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
        return operation("matmul")(self, o)

    def __rmatmul__(self, o):
        return operation("matmul")(o, self)

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
        return operation("reduce_sum")(self, dim, keepdim)

    def mean(self, dim=None, keepdim=False):
        return operation("mean")(self, dim, keepdim)

    def var(self, dim=None, keepdim=False, unbiased=False, correction=None):
        return operation("var")(self, dim, keepdim, 0 if correction is None and not unbiased
                             else (1 if correction is None else correction))

    def amax(self, dim=-1, keepdim=False):
        return operation("amax")(self, dim, keepdim)

    def amin(self, dim=-1, keepdim=False):
        return operation("amin")(self, dim, keepdim)

    def cumsum(self, dim):
        return operation("cumsum")(self, dim)

    def softmax(self, dim):
        return operation("softmax")(self, dim)

    def log_softmax(self, dim):
        return operation("log_softmax")(self, dim)

    def logsumexp(self, dim, keepdim=False):
        return operation("logsumexp")(self, dim, keepdim)

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

    def __getattr__(self, name):  # tensor methods the table maps: x.sigmoid(), x.gather()
        impl = None if name.startswith("__") else TORCH_TABLE.get(getattr(torch.Tensor, name, None))
        if impl is None:
            raise AttributeError(f"torch.Tensor.{name} has no derived error bound on balls")
        return lambda *args, **kwargs: impl(self, *args, **kwargs)


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
    r = round_up(prop + u * (v.abs() + 2.0 * prop) + current().eta)
    # x + 0 is x exactly (no rounding, no underflow) when both operands are exact
    exact = (is_exact_zero(a) & (b.r == 0)) | (is_exact_zero(b) & (a.r == 0))
    r = torch.where(exact, torch.zeros_like(r), r)
    return Ball(v, keep_exact_inf(v, r, a, b, op="a + b"))


def sub(a: Any, b: Any) -> Ball:
    return add(a, -lift(b))


def mul(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    m = current()
    v = a.v * b.v
    ma, mb = magnitude(a), magnitude(b)
    zero = is_exact_zero(a) | is_exact_zero(b)
    r = ma * b.r + (b.v.abs() + b.r) * a.r + m.u * ma * mb + m.eta
    r = torch.where(zero, torch.zeros_like(r), r)
    return Ball(v, keep_exact_inf(v, round_up(r), a, b, op="x * x" if a is b else "a * b"))


def div(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    m = current()
    v = a.v / b.v
    low = lower_magnitude(b)
    ma = magnitude(a)
    safe = torch.where(low > 0, low, torch.ones_like(low))
    r = a.r / safe + ma * b.r / (safe * safe) + m.rel("div") * ma / safe + m.eta
    r = torch.where(low > 0, r, torch.full_like(r, INF))
    r = torch.where(is_exact_zero(a) & (low > 0), torch.zeros_like(r), r)
    return Ball(v, keep_exact_inf(v, round_up(r), a, b, op="a / b"))


def exp(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.exp(a.v)
    rho = a.r + m.exp_arg_rel * magnitude(a)
    rho = torch.where(is_exact_inf(a), torch.zeros_like(rho), rho)
    top = torch.exp(a.v + a.r)
    r = top * torch.expm1(rho) + m.rel("exp") * torch.exp(a.v + a.r + rho) + m.eta
    r = torch.where(torch.isneginf(a.v) & (a.r == 0), torch.zeros_like(r), r)
    return Ball(v, keep_exact_inf(v, round_up(r), a, op="exp(x)"))


def log(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.log(a.v)
    low = lower_magnitude(a)
    safe = torch.where(low > 0, low, torch.ones_like(low))
    biggest = torch.maximum(torch.log(safe).abs(), torch.log(magnitude(a).clamp(min=1e-300)).abs())
    r = a.r / safe + m.rel("log") * biggest + m.log_abs
    r = torch.where(low > 0, r, torch.full_like(r, INF))
    r = torch.where(is_exact_zero(a) | is_exact_inf(a), torch.zeros_like(r), r)
    return Ball(v, keep_exact_inf(v, round_up(r), a))


def sqrt(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.sqrt(a.v)
    low = lower_magnitude(a).clamp(min=0.0)
    by_slope = torch.where(low > 0, a.r / (2.0 * torch.sqrt(low)), torch.full_like(low, INF))
    r = torch.minimum(by_slope, torch.sqrt(a.r)) + m.rel("sqrt") * torch.sqrt(magnitude(a)) + m.eta
    negative = a.v - 2.0 * a.r < 0
    if bool(negative.any()):
        flag("sqrt of a value whose ball reaches below 0 (the kernel may compute NaN)")
    r = torch.where(is_exact_zero(a), torch.zeros_like(r), r)
    return Ball(v, keep_exact_inf(v, round_up(r), a))


def rsqrt(a: Any) -> Ball:
    a = lift(a)
    m = current()
    v = torch.rsqrt(a.v)
    low = lower_magnitude(a)
    safe = torch.where(low > 0, low, torch.ones_like(low))
    r = a.r / (2.0 * safe * torch.sqrt(safe)) + m.rel("rsqrt") / torch.sqrt(safe) + m.eta
    r = torch.where(low > 0, r, torch.full_like(r, INF))
    return Ball(v, no_overflow(v, round_up(r), op="rsqrt(x)"))


def maximum(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    return Ball(torch.maximum(a.v, b.v), torch.maximum(*torch.broadcast_tensors(a.r, b.r)))


def minimum(a: Any, b: Any) -> Ball:
    a, b = lift(a), lift(b)
    return Ball(torch.minimum(a.v, b.v), torch.maximum(*torch.broadcast_tensors(a.r, b.r)))


def where(cond: Any, a: Any, b: Any) -> Ball:
    """Branch on the float64 values; where the decision is uncertain the radius covers
    both branches and a flag is raised."""
    d = decision(cond)
    a, b = lift(a), lift(b)
    v = torch.where(d.value, a.v, b.v)
    r = torch.where(d.value, a.r, b.r)
    if bool(d.uncertain.any()):
        flag(f"{int(d.uncertain.sum())} branch decision(s) straddle the branch point")
        gap = torch.where(a.v == b.v, torch.zeros_like(v), (a.v - b.v).abs())
        both = round_up(gap + 2.0 * (a.r + b.r), 3)
        r = torch.where(d.uncertain, torch.maximum(r, both), r)
    return Ball(v, r)


def cast(x: Ball, fmt: str | torch.dtype) -> Ball:
    """The output rounded to ``fmt`` (round to nearest): + u_out(|v| + 2r) + η_out; exact
    (nothing added) when ``fmt`` holds every value of the compute format (u_out ≤ u)."""
    name = format_name(fmt)
    if name == "float64" or unit_roundoff(name) <= current().u:
        return x
    u = unit_roundoff(name)
    extra = u * magnitude(x) + HALF_SUBNORMAL[name]
    r = torch.where(is_exact_inf(x) | is_exact_zero(x), x.r, round_up(x.r + extra, 3))
    return Ball(x.v, no_overflow(x.v, r, name))


def stored(x: Any) -> Ball:
    """``x`` rounded to the format the kernel stores its inputs in (an intermediate the
    kernel casts down before a ``tl.dot``, as a LoRA kernel does with x·B)."""
    return cast(lift(x), current().storage or current().compute)
