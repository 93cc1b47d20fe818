"""The plain-Python runner: a law's original sides, run as Python runs them.

Everything else in ``verify.decide`` reads a function through an interpretation (z3
terms, mpmath numbers, Fractions), each a *copy* of the function with its vocabulary
rebound. Whatever such a copy gets wrong (state a helper writes, ``is``, type tests,
library constants, constants the compiler folded) every interpretation gets wrong
alike. This runner shares none of it: it calls the original function objects (their
own module, globals and closure cells; ``math``, ``numpy`` and ``statistics`` as they
are) on

- ``Fraction`` inputs inside ``rational_only()`` (exact; used where the code stays
  rational from start to end), and
- ``Tracked`` inputs: Python floats (a ``float`` subclass) that carry a running bound on
  their rounding error. Each ``+ − × ÷ **`` on a tracked value adds the bound of its own
  rounding (``u·|result|``, u = 2⁻⁵³; below the smallest normal the absolute rounding
  of gradual underflow or a flush to 0) to the propagated bounds of its operands; a
  comparison whose operands are closer than their bounds is *uncertain*; a finite
  operation that overflows is noted. A value that leaves the tracked arithmetic (a
  ``math``/``numpy`` call, a float that is not a constant of the code) makes the run
  *opaque*: its bound no longer covers everything.

Code written for Triton (``tl.*`` inside ``@triton.jit`` functions, which plain Python
cannot call) runs through none of the interpretations: every law whose sides reach a
``@triton.jit`` function runs on Triton's own interpreter (``verify.decide.tritonrun``:
the original sides inside a driver kernel, float64 lanes, integer domains on int64
lanes), an opaque run whose overflow or underflow leaves the point undecided, as does
a construct the interpreter cannot run. Triton code cannot write Python state, so what
the interpreter computes is what the code computes on the device's rules.

``judge`` says what one point shows: ``differ`` (certain: exact, or beyond the running
bound of a run that is not opaque), ``gross`` (an opaque run whose sides differ beyond
2⁻³⁰ of the largest of the sides, the inputs and 1: needs a second opinion), ``agree`` or
``undecided`` (Python raises there, a branch within rounding, an overflow). A complex
side (a negative base to a non-integer power) is compared as the number it is.
``confirms`` is the replay every refutation passes before it is shown.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from laws.core import BOUNDED, Law
from verify.decide import tritonrun
from verify.engine import domains
from verify.engine.interp import JIT_SOURCES
from verify.engine.tracked import Tracked, literals as _literals, watching
from verify.engine.rational_only import Inexact, rational_only
from verify.engine.shapes import flatten, shape_like

SLACK = 16                      # the running bound is first order: room for what it drops
GROSS = 2.0 ** -30              # an opaque run's sides differ beyond this relative size
NARROW_ROOM = 2.0 ** 8          # a Triton run that computed in float32 (int / int is
#                                 float32 on the device): room for its roundings, in units


# ----------------------------------------------------------------------------- running
@dataclass
class Sides:
    lhs: list[Any]
    rhs: list[Any]
    errors: list[float]          # per component: bound of lhs error + rhs error
    exact: bool = False
    opaque: bool = False
    uncertain: bool = False
    overflow: bool = False
    lanes: bool = False          # run by Triton's interpreter on float64 lanes

    @property
    def runner(self) -> str:
        return "Triton's interpreter" if self.lanes else "plain Python"


class _Triton(Exception):
    pass


class _TritonCode(Exception):
    """The code turned out to be Triton code: Triton's interpreter runs it."""


def _from_triton(exc: BaseException) -> bool:
    """Raised by Triton, or by the body of a ``@triton.jit`` function (0/0 there raises
    in Python but is NaN on the device)."""
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if "/triton/" in code.co_filename.replace("\\", "/") or code in JIT_SOURCES:
            return True
        tb = tb.tb_next
    return isinstance(exc, RuntimeError) and "triton" in str(exc).lower()


def _call(law: Law, vals: list[Any], instance: Mapping[str, Any]):
    lhs = law.lhs(*vals, **instance)
    rhs = law.rhs(*vals, **instance)
    bound = law.error_bound(*vals, **instance) if law.exactness == BOUNDED else None
    return flatten(lhs), flatten(rhs), bound


def run_exact(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> Sides | None:
    """Both sides on Fractions, the original code; None where they are not rational
    (a float anywhere). A raise propagates; Triton code raises ``_TritonCode``."""
    if law.exactness == BOUNDED:
        return None
    vals = [shape_like(v, [x if isinstance(x, bool) else Fraction(x) for x in flatten(val)])
            for v, val in zip(law.vars_for(instance), values)]
    try:
        with rational_only():
            lhs, rhs, _ = _call(law, vals, instance)
    except (ZeroDivisionError, ValueError) as exc:
        if _from_triton(exc):
            raise _TritonCode() from exc
        raise
    except Exception as exc:
        if _from_triton(exc):
            raise _TritonCode() from exc
        return None
    if _triton_values(lhs + rhs):
        raise _TritonCode()
    if len(lhs) != len(rhs) or not all(
            isinstance(x, (int, Fraction)) for x in lhs + rhs):
        return None
    return Sides(lhs, rhs, [0.0] * len(lhs), exact=True)


def _triton_values(xs: list[Any]) -> bool:
    """Values of Triton's interpreter: the code ran as Triton code (TRITON_INTERPRET=1
    makes a @triton.jit function callable), so the Triton readings decide."""
    return any(type(x).__module__.startswith("triton") for x in xs)


def _as_float(x: Any, dom: str, raw: bool = False) -> Any:
    if isinstance(x, bool):
        return x
    if domains.get(dom).integer and Fraction(x).denominator == 1:
        return int(x)
    return float(x) if raw else Tracked(float(x))


def run_float(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
              raw: bool = False) -> Sides:
    """Both sides on tracked Python floats (with ``raw`` on bare ``float``s, for code
    that tests ``type(x) is float``: an opaque run). Raises what the function raises
    there; Triton code raises ``_TritonCode``."""
    vars_ = law.vars_for(instance)
    vals = [shape_like(v, [_as_float(x, d, raw) for x, d in zip(flatten(val),
                                                                 v.component_domains())])
            for v, val in zip(vars_, values)]
    try:
        with watching(_literals([law.lhs, law.rhs])) as watch:
            lhs, rhs, bound = _call(law, vals, instance)
    except TypeError as exc:
        if "Tensor" not in str(exc):
            raise
        return _run_tensors(law, values, instance)
    except Exception as exc:
        if not _from_triton(exc):
            raise
        raise _TritonCode() from exc
    if _triton_values(lhs + rhs):
        raise _TritonCode()
    if bound is not None:
        raise _Triton("bounded laws are compared by the oracle")
    errs = []
    for a, b in zip(lhs, rhs):
        e = 0.0
        for x in (a, b):
            if isinstance(x, Tracked):
                e += x.err
            elif isinstance(x, float) and float(x) not in watch.literals and x == x:
                watch.opaque = True
            elif not isinstance(x, (int, float, bool)):
                watch.opaque = True
        errs.append(e)
    return Sides(lhs, rhs, errs, opaque=watch.opaque or raw, uncertain=watch.uncertain,
                 overflow=watch.overflow)


def _run_tensors(law: Law, values: list[Any], instance: Mapping[str, Any]) -> Sides:
    """Code written for torch tensors (``torch.exp`` refuses a float): the original
    function on 0-d float64 tensors, an opaque run; non-finite results from finite
    inputs are the format's limits (the point is then undecided)."""
    import torch
    vals = [shape_like(v, [torch.tensor(float(x), dtype=torch.float64) for x in flatten(val)])
            for v, val in zip(law.vars_for(instance), values)]
    lhs, rhs, _ = _call(law, vals, instance)
    conv = [[x.item() if isinstance(x, torch.Tensor) else x for x in side]
            for side in (lhs, rhs)]
    return Sides(conv[0], conv[1], [0.0] * len(conv[0]), opaque=True)


# ----------------------------------------------------------------------------- judging
@dataclass
class Seen:
    status: str                  # "differ" | "gross" | "agree" | "undecided"
    sides: Sides | None = None
    why: str = ""


def _num(x: Any) -> Any:
    if isinstance(x, Tracked):
        return float.__float__(x)
    if isinstance(x, np.generic):
        return x.item()
    return x


def _nan(x: Any) -> bool:
    return isinstance(x, float) and x != x


def _scale(values: list[Any]) -> float:
    """The size an opaque run's rounding is measured against: the largest input and 1
    (constants such as exp(0) = 1 meet the inputs: log(exp(x)) at x = 5e-324 is 0)."""
    out = 1.0
    for x in flatten(values):
        try:
            out = max(out, abs(float(x)))
        except (TypeError, ValueError, OverflowError):
            continue
    return out


def _compare_sides(s: Sides, scale: float = 1.0, gross: float = GROSS) -> Seen:
    verdict = "agree"
    for a, b, e in zip(s.lhs, s.rhs, s.errors):
        a, b = _num(a), _num(b)
        if isinstance(a, bool) or isinstance(b, bool):
            if bool(a) != bool(b):
                verdict = "differ" if not s.opaque else "gross"
            continue
        if isinstance(a, complex) or isinstance(b, complex):
            verdict = _complex_verdict(complex(a), complex(b), scale, verdict)
            continue
        if not isinstance(a, (int, float, Fraction)) or not isinstance(b, (int, float, Fraction)):
            return Seen("undecided", s, "a side is not a real number in Python")
        if _nan(a) or _nan(b):
            if _nan(a) != _nan(b):
                verdict = "differ" if not s.opaque else "gross"
            continue
        if math.isinf(a) or math.isinf(b):
            if a != b:
                verdict = "differ" if not s.opaque else "gross"
            continue
        d = abs(Fraction(a) - Fraction(b))
        if d == 0 or d <= SLACK * e:
            continue
        if not s.opaque:
            verdict = "differ"
        elif d > gross * max(abs(a), abs(b), scale):
            verdict = "gross" if verdict != "differ" else verdict
    return Seen(verdict, s)


def _complex_verdict(a: complex, b: complex, scale: float, verdict: str) -> str:
    """A complex side (``**`` of a negative base and a non-integer exponent) is a value
    like any other, never a point that decides nothing: against a real number or another
    complex number, sides apart by more than 2⁻³⁰ of their size differ as an opaque
    run's do (``gross``: the complex arithmetic carries no rounding bound)."""
    d = abs(a - b)
    if d == 0 or d <= GROSS * max(abs(a), abs(b), scale):
        return verdict
    return verdict if verdict == "differ" else "gross"


def judge(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
          exact_run: bool = True, raw: bool = False) -> Seen:
    """What plain Python shows at ``values`` (see the module docstring). Without
    ``exact_run`` only the float run speaks (a function that tests types takes another
    branch on a Fraction than on a float). Triton code: ``judge_triton``."""
    if tritonrun.reaches_triton(law):
        return judge_triton(law, values, instance)
    try:
        exact = run_exact(law, values, instance) if exact_run else None
    except _TritonCode:
        return judge_triton(law, values, instance)
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError, AssertionError):
        exact = None  # the float run decides what the raise means
    if exact is not None:
        same = all(a == b for a, b in zip(exact.lhs, exact.rhs))
        return Seen("agree" if same else "differ", exact)
    try:
        s = run_float(law, values, instance, raw)
    except _TritonCode:
        return judge_triton(law, values, instance)
    except _Triton:
        return Seen("undecided", None, "a bounded law")
    except (ZeroDivisionError, ValueError, OverflowError, ArithmeticError,
            AssertionError) as exc:
        return Seen("undecided", None, f"Python raises there ({type(exc).__name__}: {exc})")
    except (TypeError, AttributeError, IndexError, KeyError, Inexact) as exc:
        return Seen("undecided", None, f"the function does not run on floats there "
                                       f"({type(exc).__name__}: {exc})")
    if s.uncertain:
        return Seen("undecided", s, "a branch was taken within rounding")
    if s.overflow:
        return Seen("undecided", s, "a finite operation overflowed")
    return _compare_sides(s, _scale(values))


def judge_triton(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> Seen:
    """What Triton's interpreter shows at ``values`` (float64 lanes, an opaque run)."""
    if law.exactness == BOUNDED:
        return Seen("undecided", None, "a bounded law")
    try:
        found = tritonrun.sides(law, values, instance)
    except tritonrun.NotRun as exc:
        return Seen("undecided", None, f"Triton's interpreter cannot run it there ({exc})")
    s = Sides(found.lhs, found.rhs, [0.0] * len(found.lhs), opaque=True,
              overflow=found.overflow, lanes=True)
    if found.overflow:
        return Seen("undecided", s, "a float operation overflowed or underflowed")
    return _compare_sides(s, _scale(values), max(GROSS, NARROW_ROOM * found.unit))


def prefetch(law: Law, points: list[list[Any]], instance: Mapping[str, Any] = {}) -> None:
    """Run ``points`` in one launch when the law is Triton code (``judge`` then reads
    the results); nothing otherwise."""
    if tritonrun.reaches_triton(law) and law.exactness != BOUNDED:
        tritonrun.prefetch(law, points, instance)


def floats_exact(values: list[Any]) -> bool:
    """Whether every component is a double (so the float run is at this very point)."""
    for x in flatten(values):
        if isinstance(x, bool):
            continue
        try:
            if Fraction(float(x)) != Fraction(x):
                return False
        except (OverflowError, TypeError, ValueError):
            return False
    return True


def confirms(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
             exact_run: bool = True, raw: bool = False) -> tuple[bool, str]:
    """Whether plain Python confirms a refutation at ``values``: (confirmed, why not).
    Exact where the code stays rational; else the sides must differ beyond the float
    run's rounding bound (an opaque run, Triton code's included: beyond 2⁻³⁰ of their
    size, or a NaN or ∞ against a number)."""
    if law.exactness == BOUNDED:
        return True, ""  # a bound is compared by the oracle alone
    seen = judge(law, values, instance, exact_run=exact_run, raw=raw)
    if seen.status in ("differ", "gross"):
        return True, ""
    runner = seen.sides.runner if seen.sides else "plain Python"
    if seen.status == "agree":
        how = "in exact rational arithmetic" if seen.sides and seen.sides.exact else \
            "within the rounding of its float run"
        return False, f"the function run by {runner} gives equal sides there ({how})"
    if tritonrun.reaches_triton(law):
        runner = "Triton's interpreter"
    return False, f"{runner} cannot decide the point: {seen.why}"


def plain_value(x: Any) -> Any:
    """A side's component as a plain number for reports."""
    return _num(x)


def pre_holds(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
              exact_run: bool = True) -> bool | None:
    """Whether the law's preconditions hold at ``values`` by plain Python (the
    original code, exactly where it stays rational, else on tracked floats); None
    where Python raises or a test goes within rounding. A precondition that reaches
    Triton code (the auditor's guard calls the sides) is not run by plain Python: the
    oracle's reading of it stands, which every caller checks first."""
    if law.pre is None or tritonrun.reaches(law.pre):
        return True
    vars_ = law.vars_for(instance)
    vals = [shape_like(v, [x if isinstance(x, bool) else Fraction(x) for x in flatten(val)])
            for v, val in zip(vars_, values)]
    try:
        if exact_run:
            with rational_only():
                return all(bool(c) for c in flatten(law.pre(*vals, **instance)))
    except Exception:
        pass
    fvals = [shape_like(v, [_as_float(x, d) for x, d in zip(flatten(val), v.component_domains())])
             for v, val in zip(vars_, values)]
    try:
        with watching(_literals([law.pre])) as watch:
            conds = [bool(c) for c in flatten(law.pre(*fvals, **instance))]
    except Exception as exc:  # Triton code: the oracle's reading of it stands
        return True if _from_triton(exc) else None
    return None if watch.uncertain else all(conds)


def finite_sides(sides: Sides | None) -> bool:
    """Whether every component of both sides is a finite number."""
    if sides is None:
        return False
    for x in sides.lhs + sides.rhs:
        x = _num(x)
        if isinstance(x, float) and not math.isfinite(x):
            return False
    return True
