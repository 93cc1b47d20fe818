"""A counterexample evaluated step by step, and values as text.

``trace`` evaluates both sides of a refuted property at its counterexample, recording
every call of the audited function: exactly in rationals when the function stays
rational, else in mpmath at 177 bits.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import mpmath

from verify.decide import oracle
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.engine.mpwords import make_mpmath

TRACE_SECONDS = 10
NEG_INF, POS_INF = float("-inf"), float("inf")
MP = make_mpmath()


# --------------------------------------------------------------------------- tracing
class _Tracer:
    """Records each call of the audited function with its result."""

    def __init__(self, fn: Callable, name: str = "f") -> None:
        self.fn, self.name = fn, name
        self.calls: list[tuple[tuple, Any]] = []

    def __call__(self, *args):
        value = self.fn(*args)
        self.calls.append((args, value))
        return value


def _exact_inputs(values):
    if isinstance(values, (tuple, list)):
        return type(values)(_exact_inputs(v) for v in values)
    if isinstance(values, Fraction):
        return values
    if isinstance(values, int) and not isinstance(values, bool):
        return Fraction(values)  # so that a/b stays exact
    if isinstance(values, float):
        return Fraction(values)
    if isinstance(values, str) and "/" in values:
        return Fraction(values)
    return Fraction(str(values))


def _all_mpf(values):
    if isinstance(values, (tuple, list)):
        return type(values)(_all_mpf(v) for v in values)
    if isinstance(values, Fraction):
        return mpmath.mpf(values.numerator) / values.denominator
    if isinstance(values, str):
        return _all_mpf(_exact_inputs(values)) if "/" in values else mpmath.mpf(values)
    return mpmath.mpf(values)


def _all_exact(x) -> bool:
    if isinstance(x, (tuple, list)):
        return all(_all_exact(v) for v in x)
    return isinstance(x, (int, Fraction, bool)) and not isinstance(x, float)


def trace(prop, g, values, name: str = "f") -> dict:
    """Both sides evaluated step by step: every call of f with its value. Exact
    rational arithmetic when the function stays rational, else mpmath at 177 bits."""
    try:
        with time_limit(TRACE_SECONDS):
            return _trace(prop, g, values, name)
    except TimeLimit as exc:
        return {"exact": False, "lhs_calls": [], "rhs_calls": [], "lhs": None,
                "rhs": None, "note": f"tracing {exc}"}


def _trace(prop, g, values, name: str = "f") -> dict:
    fn = MP.rebind(g)
    try:
        exact_vals = _exact_inputs(values)
        lt, rt = _Tracer(fn, name), _Tracer(fn, name)
        lv, rv = prop.lhs(lt, *exact_vals), prop.rhs(rt, *exact_vals)
        if _all_exact([c for _, c in lt.calls + rt.calls] + [lv, rv]):
            return _steps(lt, rt, lv, rv, exact=True)
    except Exception:  # not rational all the way: evaluate in mpmath instead
        pass
    try:
        with mpmath.workprec(oracle.PREC + 64):
            mp_vals = _all_mpf(values)
            lt, rt = _Tracer(fn, name), _Tracer(fn, name)
            lv, rv = prop.lhs(lt, *mp_vals), prop.rhs(rt, *mp_vals)
            return _steps(lt, rt, lv, rv, exact=False)
    except Exception:  # an operation mpf does not have: Python's own numbers instead
        pass
    try:
        for number in (float, int):  # int: a function Python runs on ints only (a ^ b)
            lt, rt = _Tracer(g, name), _Tracer(g, name)
            py_vals = _plain_inputs(values, number)
            try:
                lv, rv = prop.lhs(lt, *py_vals), prop.rhs(rt, *py_vals)
                break
            except TypeError:
                if number is int:
                    raise
        out = _steps(lt, rt, lv, rv, exact=_all_exact(
            [c for _, c in lt.calls + rt.calls] + [lv, rv]))
        out["plain"] = True
        return out
    except Exception as exc:  # nothing to show beyond the counterexample itself
        return {"exact": False, "lhs_calls": [], "rhs_calls": [], "lhs": None,
                "rhs": None, "note": f"could not trace: {one_line(exc)}"}


def _plain_inputs(values, number):
    """The values as Python floats, or (``number`` int) as ints where all are integers."""
    if isinstance(values, (tuple, list)):
        return type(values)(_plain_inputs(v, number) for v in values)
    q = _exact_inputs(values)
    if number is int and q.denominator != 1:
        raise ValueError(f"{q} is no integer")
    return number(q)


def _steps(lt: _Tracer, rt: _Tracer, lv, rv, exact: bool) -> dict:
    def calls(tr):
        return [{"call": f"{tr.name}({', '.join(show(a) for a in args)})",
                 "value": show(v)} for args, v in tr.calls]
    return {"exact": exact, "lhs_calls": calls(lt), "rhs_calls": calls(rt),
            "lhs": show(lv), "rhs": show(rv)}


def show(x: Any) -> str:
    """A value as text: integers and fractions exactly, ±∞, others to 20 digits."""
    if isinstance(x, (tuple, list)):
        inner = ", ".join(show(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if x == NEG_INF:
            return "−∞"
        if x == POS_INF:
            return "+∞"
        if x != x:
            return "nan"
        return str(int(x)) if x == int(x) and abs(x) < 2 ** 53 else repr(x)
    if isinstance(x, mpmath.mpf):
        if mpmath.isinf(x):
            return "+∞" if x > 0 else "−∞"
        if mpmath.isnan(x):
            return "nan"
        if x == int(x) and abs(x) < 2 ** 64:
            return str(int(x))
        return mpmath.nstr(x, 20)
    if isinstance(x, mpmath.mpc):
        return mpmath.nstr(x, 12)
    if isinstance(x, str) and x in ("inf", "-inf"):
        return "+∞" if x == "inf" else "−∞"
    return str(x)

