"""When the finite stand-in for ±∞ means what the real infinity means, and where the
real infinity makes NaN.

The z3 interpretation models −∞ as a real L below every variable (and below −1), +∞ as
a real U above every variable. A proof then shows lhs(L) = rhs(L) for every such L, so
the two sides have the same limit as L → −∞. That says something about the function at
the real −∞ only when its value there *is* that limit: every operation on the way must
be continuous at the limit or give what IEEE arithmetic gives, and every test must come
out the same at the limit as at real infinity.

``verify.engine.infinity_classes`` classifies each term by its behaviour as L → −∞ and
U → +∞, by region: finite with its real value, a finite limit, 0, −∞, +∞ or NaN, each
under a z3 condition over the variables. NaN is what IEEE and Python's floats give: ∞ − ∞,
0·∞, ∞/∞, a root or log of −∞ (numpy's NaN; ``math.sqrt``/``math.log`` raise there, a
side condition on the path), and any operation on such a NaN.

An infinity times a factor of class F has the factor's sign, by region (x·U is +∞ where
x > 0, −∞ where x < 0, NaN where x = 0). The NaN regions feed the NaN conditions of
``verify.engine.nan``, so ``r == r``, ``isnan`` and the comparison of the two sides see
them. ``infinite_regions`` says where a value is +∞ and −∞ (``math.isinf``, through
``NanModel.infinite``), from the same classes.

It raises ``Unsupported`` on what it cannot follow: an infinity times or divided by a
term whose limit is finite but not 0 (its sign or zero at the limit is unknown), a
division by a term that tends to 0 or depends on ∞, an infinity divided inside
``@triton.jit`` by a term that may be 0 (±∞ of the zero's sign), a log or root of a
term that tends to 0 or to a finite limit, and a test whose outcome at finite L can
differ from its outcome at the real infinity (``lo + 1 == lo``, ``exp(lo) == 0``, a
comparison of two terms with the same infinite limit) unless both branches have the
same infinity there (``max(x, y)`` with x, y both −∞).

A comparison's outcome where an operand is NaN is not read from the stand-ins: every
test the interpretation branches on carries its IEEE meaning (``NanModel.test``), and
the comparisons inside ``abs`` and ``maximum`` sit under a value that is NaN there.

What it does not cover: operations other than + − × ÷, exp (through its symbols), log,
sqrt, If and comparisons with an infinity in them are refused, not analysed.
"""
from __future__ import annotations

from typing import Any

import z3

from verify.engine.interp import Unsupported
from verify.engine.infinity_classes import NAN, NEG, POS, Analysis, Bad, peel

_FALSE = z3.BoolVal(False)


def _refusal(exc: Bad) -> Unsupported:
    return Unsupported(f"±∞ is modeled by a finite stand-in, and here the function could "
                       f"tell it from the real infinity ({exc})")


def analysis(ctx) -> Analysis:
    """The context's analysis (one per context: its classes are kept)."""
    found = getattr(ctx, "_infinity_analysis", None)
    if found is None:
        found = Analysis(ctx)
        ctx._infinity_analysis = found
    return found


def check_term(ctx, term: Any) -> None:
    """Raise ``Unsupported`` unless ``term`` (a number or a truth value) reads the same
    with the stand-ins as with real infinities."""
    check_terms(ctx, [term])


def check_terms(ctx, terms: list[Any]) -> None:
    if not ctx._inf:
        return
    found = analysis(ctx)
    try:
        for t in terms:
            if z3.is_expr(t):
                found.test(t) if z3.is_bool(t) else found.value(t)
    except Bad as exc:
        raise _refusal(exc) from None


def test_reads_alike(ctx, c: Any) -> bool:
    """Whether the truth value ``c`` is the same with the stand-ins as at the real
    infinities (then what simplification decides about it holds there too)."""
    if not ctx._inf or not z3.is_expr(c):
        return True
    try:
        return analysis(ctx).test(c) != "bad"
    except Bad:
        return False


def fixed_outcome(ctx, c: Any) -> bool | None:
    """True / False when the test ``c`` has that outcome everywhere, in both readings
    (``L ≥ x`` is false): the other branch of an ``If`` on it is never taken."""
    if not ctx._inf or not z3.is_expr(c):
        return None
    try:
        outcome = analysis(ctx).test(c)
    except Bad:
        return None
    return {"T": True, "F": False}.get(outcome)


def guarded_extremum(ctx, c: Any, a: Any, b: Any) -> z3.BoolRef | None:
    """For If(c, a, b) where c is the IEEE form And(Not(n), a ⋈ b) of a comparison of
    the branches (a Python max) and its reading may differ at ±∞: n, where the If takes
    b. Inside the guard neither branch is NaN, so the If is NaN exactly where n and b
    are. None otherwise."""
    if not ctx._inf or not z3.is_expr(c):
        return None
    peeled = peel(c)
    if peeled is None or peeled[0] is None:
        return None
    guard, _, p, q = peeled
    if {a.get_id(), b.get_id()} != {p.get_id(), q.get_id()}:
        return None
    try:
        if analysis(ctx).test(c) != "bad":
            return None
    except Bad:
        pass
    return guard.arg(0)


def nan_region(ctx, t: Any) -> z3.BoolRef:
    """Where the value ``t`` is NaN because of arithmetic on ±∞ (``_FALSE`` if nowhere)."""
    if not ctx._inf or not z3.is_expr(t) or not z3.is_arith(t):
        return _FALSE
    try:
        return analysis(ctx).value(t).get(NAN, _FALSE)
    except Bad as exc:
        raise _refusal(exc) from None


def infinite_regions(ctx, t: Any) -> tuple[z3.BoolRef, z3.BoolRef]:
    """(where t is +∞, where t is −∞), outside its NaN region; valid only where t is not
    NaN for another reason (a NaN literal, a root of a negative)."""
    if not ctx._inf or not z3.is_expr(t) or not z3.is_arith(t):
        return _FALSE, _FALSE
    try:
        classes = analysis(ctx).value(t)
    except Bad as exc:
        raise _refusal(exc) from None
    return classes.get(POS, _FALSE), classes.get(NEG, _FALSE)


def may_be_infinite(ctx, t: Any, stand_ins: bool = True) -> bool:
    """Whether a term reaches (through roots, logs and exponents too) a stand-in for
    ±∞ (unless ``stand_ins`` is false), a log of the NaN kind (log 0 = −∞) or a division
    in a ``@triton.jit`` function (x/0 = ±∞): a test on it that its form decides may be
    wrong there."""
    marks = set(ctx.unbounded)
    if stand_ins:
        marks |= {s.get_id() for s in ctx._inf.values()}
    if not marks or not z3.is_expr(t):
        return False
    seen, stack = set(), [t]
    while stack:
        u = stack.pop()
        uid = u.get_id()
        if uid in seen:
            continue
        seen.add(uid)
        if uid in marks:
            return True
        part, base = ctx.partial.get(uid), ctx.exp_base.get(uid)
        if part is not None and z3.is_expr(part.arg):
            stack.append(part.arg)
        if base is not None:
            stack.append(base)
        if z3.is_app(u):
            stack.extend(u.children())
    return False
