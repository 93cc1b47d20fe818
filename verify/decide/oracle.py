"""The mpmath oracle: evaluate a law at high precision, decide whether its sides differ,
replay and shrink counterexamples.

Where both sides are rational at the point (the original function run on
``fractions.Fraction`` values stays rational), they are compared exactly and any
difference is a difference, unless a branch of the high-precision replay went by
rounding (below). Elsewhere two sides *differ* when their gap, computed at ``PREC`` and
again at ``PREC + 64`` bits,
is stable between the two precisions (rounding noise shrinks as precision grows; a real
gap does not) and exceeds 2⁻⁴⁰ of the sides' magnitude (a smaller gap could come from
double-precision arithmetic inside the function, which no precision setting reaches).
A bounded law differs when the gap exceeds its bound. A difference is then confirmed
at twice the higher precision, doubling until two successive levels give the same
sides (to 2⁻⁴⁰ of their magnitude), up to ``MAX_PREC`` bits, else the point is
undecided: ``exp(a²) + 1 − exp(a²)`` at a = 12 loses the 1 at both 113 and 177 bits
alike. Two agreeing levels are evidence, not proof: ``cosh(b)² − sinh(b)²`` at b = 129
is 0 at 120, 184 and 368 bits alike (the 1 needs ~375). So the levels that decide
include one of at least ``DEEP_PREC`` bits plus the inputs' span: a cancellation among
values a double can hold (2⁻¹⁰⁷⁴ … 2¹⁰²⁴, the range in which the plain-Python replay
that every refutation also needs runs without overflow) is resolved there with bits to
spare. Branches follow the same rule
(``verify.engine.ties``): a point where a comparison was decided by a margin that
shrinks with the precision, or lies below 2⁻⁴⁰ of its operands, is *undecided* and
decides nothing (``sqrt(a)·sqrt(a) == a`` is false at every finite precision).

NaN is a value the function computed, not a hole in the domain: where one side is NaN
and the other a number (0·∞, ∞ − ∞, a root of a negative in ``tl``/torch/numpy), the
sides differ, and that is a counterexample. Two NaN sides at the same component agree
(NaN stands for the same failure on both sides; a float format compares them the same
way). A point where the function *raises* (``x / 0``, ``math.log`` of a negative) is
undefined: the callers catch the exception and the point decides nothing. Infinities
are values of the extended reals. The working precision grows with the binades the
inputs span.

Law values are read with one rule for numbers in the code (see ``verify.engine.interp``):
a Python float anywhere in the function is the exact double it denotes.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import mpmath
import numpy as np

from laws.core import BOUNDED, Law, Var
from verify.decide.jit_raise import raised_in_jit
from verify.decide.limits import PointTimeLimit, one_line
from verify.engine import domains, ties
from verify.engine.mpwords import make_exact, make_mpmath
from verify.engine.rational_only import rational_only
from verify.jsonio import to_plain
from verify.engine.shapes import flatten, shape_like

PREC = 113
# A gap below this fraction of the sides' magnitude is never a counterexample: it
# cannot be told apart from double-precision arithmetic hidden inside a function.
MIN_RELATIVE_GAP = mpmath.mpf(2) ** -40
MAX_EXTRA_BITS = 4000    # precision added for inputs spanning many binades
MAX_PREC = 4096 + MAX_EXTRA_BITS  # beyond it a difference not yet confirmed is undecided
# a difference is confirmed only by levels that reach this many bits (plus the inputs'
# span): the binades of the doubles, 2⁻¹⁰⁷⁴ … 2¹⁰²⁴, twice over
DEEP_PREC = 4096
MP = make_mpmath()
EXACT = make_exact()


@dataclass
class Gap:
    differs: bool          # the sides really differ (or break the bound)
    lhs: Any               # left side at PREC + 64 bits
    rhs: Any               # right side at PREC + 64 bits
    gap: Any               # max |lhs − rhs| over components (mpf), or None
    bound: Any = None      # bounded laws: the bound at the worst component
    undefined: bool = False  # a side is NaN where the other is not (a difference)
    exact: bool = False    # decided in exact rational arithmetic (no precision involved)
    undecided: bool = False  # a branch of the replay went by rounding: no verdict here




def law_values_to_mp(vars_, values: list[Any]) -> list[Any]:
    """Law values as mpmath numbers; integer-domain components stay Python ints (they
    may index), every other number becomes an mpf so no arithmetic runs in floats."""
    out = []
    for var, value in zip(vars_, values):
        comps = []
        for x, dom in zip(flatten(value), var.component_domains()):
            if domains.get(dom).integer and float(x) == int(x):
                comps.append(int(x))
            else:
                comps.append(mpmath.mpf(x.numerator) / x.denominator
                             if isinstance(x, Fraction) else mpmath.mpf(x))
        out.append(shape_like(var, comps))
    return out


def to_mp(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return type(x)(to_mp(v) for v in x)
    if isinstance(x, np.ndarray):
        out = np.empty(x.shape, dtype=object)
        for idx in np.ndindex(*x.shape):
            out[idx] = to_mp(x[idx])
        return out
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    return mpmath.mpf(x)


def _eval(law: Law, values: list[Any], instance: Mapping[str, Any], prec: int):
    with mpmath.workprec(prec):
        vals = law_values_to_mp(law.vars_for(instance), values)
        lhs = MP.rebind(law.lhs)(*vals, **instance)
        rhs = MP.rebind(law.rhs)(*vals, **instance)
        bound = (MP.rebind(law.error_bound)(*vals, **instance)
                 if law.exactness == BOUNDED else None)
        return lhs, rhs, bound


def _is_nan(x):
    return (isinstance(x, mpmath.mpf) and mpmath.isnan(x)) or (
        isinstance(x, float) and x != x)


def _dist(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return mpmath.mpf(0) if bool(a) == bool(b) else mpmath.inf
    if _is_nan(a) or _is_nan(b):
        return mpmath.mpf(0) if (_is_nan(a) and _is_nan(b)) else mpmath.inf
    if mpmath.isinf(a) or mpmath.isinf(b):
        return mpmath.mpf(0) if a == b else mpmath.inf
    return abs(mpmath.mpf(a) - mpmath.mpf(b))


def _mag(x):
    if isinstance(x, bool) or _is_nan(x) or mpmath.isinf(x):
        return mpmath.mpf(0)
    return abs(mpmath.mpf(x))


def _span_bits(values: list[Any]) -> int:
    """Bits the working precision must add: the binades spanned by the nonzero inputs
    and 1 (constants such as exp(0) = 1 meet the inputs), and the bits each input needs
    to be represented at all. Without the first, 1 + tiny loses the tiny at every
    precision alike and looks like a stable gap; without the second, an input such as
    1/2 + 2⁻¹⁰⁰⁰ (a model z3 readily gives) is rounded before the function sees it."""
    exps, bits = [0], 0
    for x in flatten(values):
        if isinstance(x, bool):
            continue
        if isinstance(x, Fraction) and x:
            bits = max(bits, _bits_needed(x))
        try:
            m = mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)
        except (TypeError, ValueError):
            continue
        if m and mpmath.isfinite(m):
            exps.append(int(mpmath.floor(mpmath.log(abs(m), 2))))
    return min(max(max(exps) - min(exps), bits), MAX_EXTRA_BITS)


def _bits_needed(x: Fraction) -> int:
    """Significand bits that represent ``x`` exactly (a dyadic rational), or as many as
    its numerator and denominator carry (any other rational has no finite binary
    expansion; this keeps its distance to nearby dyadic constants visible)."""
    p, q = abs(x.numerator), x.denominator
    if q & (q - 1) == 0:
        return (p >> ((p & -p).bit_length() - 1)).bit_length()
    return p.bit_length() + q.bit_length()


def exact_sides(law: Law, values: list[Any], instance: Mapping[str, Any] = {}):
    """Both sides in exact rational arithmetic (the original function run on
    ``fractions.Fraction`` values), or None where they are not rational there (exp, an
    infinity, a float operation anywhere). A raise (x / 0) propagates.

    Every input is a ``Fraction``, integer-domain ones included: a Python int would
    turn ``a / 49 * 49 == a`` into float arithmetic that can take the other branch and
    still return an int, which would pass for an exact answer. Code that needs a real
    int (an index, ``range``) fails on a Fraction and is left to the mpmath oracle."""
    vals = [shape_like(v, [x if isinstance(x, bool) else Fraction(x) for x in flatten(val)])
            for v, val in zip(law.vars_for(instance), values)]
    try:
        with rational_only():  # a float that decides a branch is no exact answer
            lhs = flatten(EXACT.rebind(law.lhs)(*vals, **instance))
            rhs = flatten(EXACT.rebind(law.rhs)(*vals, **instance))
    except (ZeroDivisionError, ValueError):
        raise
    except Exception:  # exp, an infinity, a float somewhere: not rational
        return None
    if law.exactness == BOUNDED or len(lhs) != len(rhs):
        return None
    if all(isinstance(x, (int, Fraction)) for x in lhs + rhs):
        return lhs, rhs
    return None


def _exact_gap(law: Law, values: list[Any], instance: Mapping[str, Any]) -> Gap | None:
    """The comparison in exact arithmetic where both sides are rational there: then no
    precision or noise rule is involved and any difference is a difference."""
    try:
        exact = exact_sides(law, values, instance)
    except (ZeroDivisionError, ValueError, OverflowError, TypeError):
        return None  # the precision-based comparison decides what a raise means
    if exact is None:
        return None
    lhs, rhs = exact
    worst = max((abs(Fraction(a) - Fraction(b)) for a, b in zip(lhs, rhs)
                 if not isinstance(a, bool) and not isinstance(b, bool)), default=Fraction(0))
    differs = any(a != b for a, b in zip(lhs, rhs))
    return Gap(differs, lhs[0] if len(lhs) == 1 else lhs, rhs[0] if len(rhs) == 1 else rhs,
               worst, exact=True)


def gap(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> Gap:
    """Compare both sides of ``law`` at ``values``: exactly where both sides are
    rational there, else in high precision (see the module docstring)."""
    exact = _exact_gap(law, values, instance)
    if exact is not None and not exact.differs:
        return exact
    span = _span_bits(values)
    prec = PREC + span
    with ties.recording() as branches1:
        l1, r1, _ = _eval(law, values, instance, prec)
    with ties.recording() as branches2:
        l2, r2, b2 = _eval(law, values, instance, prec + 64)
    if not ties.agree(branches1, branches2):
        # a branch went by rounding: the point decides nothing (see verify.engine.ties)
        return Gap(False, l2, r2, None, undecided=True)
    if exact is not None:
        return exact
    first = _compare(law, l1, r1, l2, r2, b2, prec + 64)
    if not first.differs:
        return first
    return _confirm_higher(law, values, instance, l2, r2, branches2, 2 * (prec + 64), first,
                           min(DEEP_PREC + span, MAX_PREC))


def _confirm_higher(law: Law, values: list[Any], instance: Mapping[str, Any], l_prev: Any,
                    r_prev: Any, branches_prev: Any, prec: int, first: Gap | None,
                    deep: int = 0) -> Gap:
    """A difference found at two nearby precisions is confirmed at twice the higher one:
    a cancellation that loses a term at both (``exp(a²) + 1 − exp(a²)`` at a = 12 loses
    the 1 below ~210 bits) agrees with itself there and looks like a stable gap. Where
    the sides at the doubled precision agree with the previous level, the first
    comparison stands; else the precision keeps doubling until two successive levels
    agree, and those two decide, provided the higher one has at least ``deep`` bits (else
    the next level is ``deep`` itself: ``cosh(b)² − sinh(b)²`` at b = 129 agrees with
    itself at 184 and 368 bits and is 1 only from ~375). Past ``MAX_PREC`` bits the point
    is undecided."""
    while prec <= MAX_PREC:
        with ties.recording() as branches:
            lc, rc, bc = _eval(law, values, instance, prec)
        if not ties.agree(branches_prev, branches):
            return Gap(False, lc, rc, None, undecided=True)
        agree = _levels_agree(flatten(l_prev) + flatten(r_prev), flatten(lc) + flatten(rc), prec)
        if agree and prec >= deep:
            if first is not None:
                return first
            return _compare(law, l_prev, r_prev, lc, rc, bc, prec)
        if not agree:
            first = None  # the first comparison was made at precisions that disagree
        l_prev, r_prev, branches_prev = lc, rc, branches
        nxt = 2 * prec if not agree else deep
        prec = MAX_PREC if prec < MAX_PREC < nxt else nxt
    return Gap(False, l_prev, r_prev, None, undecided=True)


def _levels_agree(prev: list[Any], cur: list[Any], prec: int) -> bool:
    """Each component at two precisions is the same value up to 2⁻⁴⁰ of the largest
    magnitude among them (the noise floor the comparison itself uses)."""
    if len(prev) != len(cur):
        return False
    with mpmath.workprec(prec):
        scale = max([_mag(x) for x in prev + cur], default=mpmath.mpf(0))
        for a, b in zip(prev, cur):
            if isinstance(a, bool) or isinstance(b, bool) or _is_nan(a) or _is_nan(b) \
                    or mpmath.isinf(a) or mpmath.isinf(b):
                if _dist(a, b) != 0:
                    return False
                continue
            if abs(mpmath.mpf(a) - mpmath.mpf(b)) > scale * MIN_RELATIVE_GAP:
                return False
    return True


def _compare(law: Law, l1: Any, r1: Any, l2: Any, r2: Any, b2: Any, prec: int) -> Gap:
    """The verdict of the two levels (see the module docstring)."""
    L1, R1, L2, R2 = flatten(l1), flatten(r1), flatten(l2), flatten(r2)
    if len(L2) != len(R2):
        raise ValueError(f"{law.id}: sides have {len(L2)} and {len(R2)} components")
    with mpmath.workprec(prec):
        worst, worst_bound, differs = mpmath.mpf(0), None, False
        bounds = flatten(b2) if b2 is not None else None
        if bounds is not None and len(bounds) == 1:
            bounds = bounds * len(L2)
        undefined = False
        for i, (a1, b1, a2, b2_) in enumerate(zip(L1, R1, L2, R2)):
            d1, d2 = _dist(a1, b1), _dist(a2, b2_)
            if _is_nan(a2) != _is_nan(b2_):
                # NaN on one side and a number on the other: a failure of the law, at
                # both precisions (NaN does not come from rounding).
                undefined = True
                if _is_nan(a1) != _is_nan(b1):
                    differs = True
                continue
            if d2 > worst:
                worst = d2
            if bounds is not None:
                # the oracle's own rounding at PREC + 64 bits is far below 2⁻¹⁰⁰ of the
                # magnitudes involved; a bound of exactly 0 must not refute on it
                slack = max(_mag(a2), _mag(b2_)) * mpmath.mpf(2) ** -100
                if d2 > bounds[i] * (1 + mpmath.mpf(2) ** -60) + slack:
                    differs, worst_bound = True, bounds[i]
                continue
            if d2 == mpmath.inf:  # truth values that differ
                differs = True
                continue
            scale = max(_mag(a2), _mag(b2_))
            stable = abs(d1 - d2) <= d2 / 100
            if d2 > 0 and stable and d2 > scale * MIN_RELATIVE_GAP:
                differs = True
        return Gap(differs, l2, r2, worst, worst_bound, undefined)


# --------------------------------------------------------------------------- domains
def in_domain(var: Var, value: Any) -> bool:
    comps = flatten(value)
    for x, dom in zip(comps, var.component_domains()):
        if isinstance(x, bool):
            return False
        m = to_mp(x)
        if not mpmath.isfinite(m):
            return False
        if not domains.get(dom).contains(m if isinstance(x, mpmath.mpf) else x):
            return False
    return True


def preconditions_hold(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
                       jit_raises: bool = False) -> bool:
    """The values are in the law's domain. A point where evaluating the preconditions
    raises is outside it, except, with ``jit_raises``, a raise inside a @triton.jit
    function (Triton computes ±∞ or NaN there), which is passed on to the caller."""
    vars_ = law.vars_for(instance)
    if not all(in_domain(v, x) for v, x in zip(vars_, values)):
        return False
    if law.pre is None:
        return True
    with mpmath.workprec(PREC + 64):
        try:
            conds = flatten(MP.rebind(law.pre)(
                *law_values_to_mp(law.vars_for(instance), values), **instance))
        except (ZeroDivisionError, ValueError) as exc:
            if jit_raises and raised_in_jit(exc):
                raise  # Triton computes ±∞ or NaN there: the point is not outside
            return False
    return all(bool(c) for c in conds)


def confirms(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> bool:
    """The values satisfy the law's domain and really separate its sides (a point where
    the function does not finish confirms nothing)."""
    return not unconfirmed(law, values, instance)


def unconfirmed(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> str:
    """Why the values do not confirm a difference ("" where they do)."""
    try:
        if not preconditions_hold(law, values, instance):
            return "the values are outside the law's domain"
    except PointTimeLimit as exc:
        return f"the function {one_line(exc)}"
    try:
        g = gap(law, values, instance)
    except (ZeroDivisionError, ValueError, OverflowError, TypeError, AssertionError,
            PointTimeLimit) as exc:
        # TypeError: a complex value (log of a negative) is no real counterexample
        return f"evaluating the sides raised {type(exc).__name__}: {one_line(exc)}"
    if g.differs:
        return ""
    if g.undecided:
        return "a test there is decided by rounding: two precisions took different branches"
    return "the sides agree there"


# --------------------------------------------------------------------------- shrinking
def _simple_candidates(x: Any) -> list[Any]:
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        base = [0, 1, -1, 2, -2, 3]
    else:
        base = [0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, 10, -10]
    try:
        f = Fraction(x) if not isinstance(x, Fraction) else x
        base += [Fraction(round(f)), Fraction(round(2 * f), 2)]
    except (TypeError, ValueError, OverflowError):
        pass
    out = []
    for c in base:
        if c not in out and _simpler(c, x):
            out.append(c)
    return out


def _simpler(c: Any, x: Any) -> bool:
    """``c`` is a strictly simpler number than ``x`` (an integer before a fraction, then
    the smaller magnitude, then the positive one): shrinking only moves this way, so it
    cannot swap two values that both confirm back and forth until its budget is spent."""
    try:
        fc, fx = Fraction(c), Fraction(x)
    except (TypeError, ValueError, OverflowError):
        return c != x   # ±∞, NaN, a complex value: any finite candidate is simpler
    def key(f: Fraction) -> tuple:
        return (f.denominator != 1, abs(f), f < 0)
    return key(fc) < key(fx)


def shrink(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
           budget: int = 400) -> list[Any]:
    """Greedily replace components by small integers and halves while the
    counterexample still confirms."""
    vars_ = law.vars_for(instance)
    flat = [list(flatten(v)) for v in values]
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for vi, comps in enumerate(flat):
            for ci in range(len(comps)):
                for cand in _simple_candidates(comps[ci]):
                    tries += 1
                    if tries > budget:
                        break
                    trial = list(comps)
                    trial[ci] = cand
                    trial_values = list(values)
                    trial_values[vi] = shape_like(vars_[vi], trial)
                    if confirms(law, trial_values, instance):
                        comps[ci] = cand
                        values = trial_values
                        changed = True
                        break
    return values


# --------------------------------------------------------------------------- reporting
def plain(x: Any) -> Any:
    """A JSON-friendly exact value: int, float when exact, else "p/q" or a decimal
    (the strict JSON convention of ``verify.jsonio``)."""
    return to_plain(x)


def counterexample(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> dict:
    """Bindings, both sides and the gap, as reported."""
    g = gap(law, values, instance)
    vars_ = law.vars_for(instance)
    out = {
        "bindings": {v.name: plain(x) for v, x in zip(vars_, values)},
        "lhs": plain(g.lhs),
        "rhs": plain(g.rhs),
        "gap": plain(g.gap) if g.gap is not None else None,
    }
    if instance:
        out["instance"] = dict(instance)
    if g.bound is not None:
        out["bound"] = plain(g.bound)
    return out

