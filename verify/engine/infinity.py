"""When the finite stand-in for ±∞ means what the real infinity means.

The z3 interpretation models −∞ as a real L below every variable (and below −1), +∞ as
a real U above every variable. A proof then shows lhs(L) = rhs(L) for every such L, so
the two sides have the same limit as L → −∞. That says something about the function at
the real −∞ only when its value there *is* that limit: every operation on the way must
be continuous at the limit and give what IEEE/extended-real arithmetic gives, and every
test must come out the same at the limit as at real infinity.

``check_term`` classifies each term by its behaviour as L → −∞ and U → +∞, one class
per region of the variables (a set of atoms):

- ``F``: does not depend on an infinity symbol (the same value in both readings);
- ``N``: a finite limit that the real evaluation reproduces (b + exp(L) → b);
- ``Z``: tends to 0 and is exactly 0 at the real infinity (exp(L − m));
- ``-`` / ``+``: tends to −∞ / +∞ and is −∞ / +∞ at the real infinity.

It raises ``Unsupported`` on anything else: ∞ − ∞ (L + a + |L − a| = a, but NaN at
−∞), 0 · ∞, a division by a term that tends to 0 or depends on L, a log or root of a
term with an infinity in it, and a test whose outcome at finite L can differ from its
outcome at the real infinity (``lo + 1 == lo``, ``exp(lo) == 0``, a comparison of two
terms with the same infinite limit) unless both branches tend to the same infinity.

What it does not cover: operations other than + − × ÷, exp (through its symbols), log,
sqrt, If and comparisons with an infinity in them are refused, not analysed.
"""
from __future__ import annotations

from typing import Any

import z3

from verify.engine.interp import Unsupported

FREE, NEAR, ZERO, NEG, POS = "F", "N", "Z", "-", "+"
_FINITE = (FREE, NEAR, ZERO)
_INFINITE = (NEG, POS)
_CMP = {z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT, z3.Z3_OP_EQ,
        z3.Z3_OP_DISTINCT}


class _Bad(Exception):
    pass


def check_term(ctx, term: Any) -> None:
    """Raise ``Unsupported`` unless ``term`` (a number or a truth value) reads the same
    with the stand-ins as with real infinities."""
    if not ctx._inf or not z3.is_expr(term):
        return
    try:
        _Analysis(ctx).value(term) if not z3.is_bool(term) else _Analysis(ctx).test(term)
    except _Bad as exc:
        raise Unsupported(f"±∞ is modeled by a finite stand-in, and here the function "
                          f"could tell it from the real infinity ({exc})") from None


def check_terms(ctx, terms: list[Any]) -> None:
    if not ctx._inf:
        return
    analysis = _Analysis(ctx)
    try:
        for t in terms:
            if z3.is_expr(t):
                analysis.test(t) if z3.is_bool(t) else analysis.value(t)
    except _Bad as exc:
        raise Unsupported(f"±∞ is modeled by a finite stand-in, and here the function "
                          f"could tell it from the real infinity ({exc})") from None


def may_be_infinite(ctx, t: Any) -> bool:
    """Whether a term reaches (through roots, logs and exponents too) a stand-in for
    ±∞, a log of the NaN kind (log 0 = −∞) or a division in a ``@triton.jit`` function
    (x/0 = ±∞): a test on it that its form decides may be wrong there."""
    marks = {s.get_id() for s in ctx._inf.values()} | set(ctx.unbounded)
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


class _Analysis:
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.inf = {sym.get_id(): (NEG if key == "-inf" else POS)
                    for key, sym in ctx._inf.items()}
        self.memo: dict[int, frozenset] = {}
        self.test_memo: dict[int, str] = {}
        self.mentions_memo: dict[int, bool] = {}

    # ------------------------------------------------------------------ dependence
    def mentions(self, t: z3.ExprRef) -> bool:
        tid = t.get_id()
        if tid in self.mentions_memo:
            return self.mentions_memo[tid]
        if tid in self.inf:
            out = True
        else:
            part = self.ctx.partial.get(tid)
            base = self.ctx.exp_base.get(tid)
            if part is not None:
                out = z3.is_expr(part.arg) and self.mentions(part.arg)
            elif base is not None:
                out = self.mentions(base)
            elif z3.is_app(t):
                out = any(self.mentions(c) for c in t.children())
            else:
                out = False
        self.mentions_memo[tid] = out
        return out

    # ------------------------------------------------------------------ values
    def value(self, t: z3.ExprRef) -> frozenset:
        tid = t.get_id()
        if tid in self.memo:
            return self.memo[tid]
        out = frozenset([FREE]) if not self.mentions(t) else self._value(t)
        self.memo[tid] = out
        return out

    def _value(self, t: z3.ExprRef) -> frozenset:
        tid = t.get_id()
        if tid in self.inf:
            return frozenset([self.inf[tid]])
        part = self.ctx.partial.get(tid)
        if part is not None:
            arg = self.value(part.arg)
            if arg in ({POS}, {FREE}):
                return arg
            raise _Bad(f"{part.kind} of a term with an infinity in it")
        base = self.ctx.exp_base.get(tid)
        if base is not None:
            table = {FREE: FREE, NEAR: NEAR, ZERO: NEAR, NEG: ZERO, POS: POS}
            return frozenset(table[a] for a in self.value(base))
        k = t.decl().kind() if z3.is_app(t) else None
        kids = t.children() if z3.is_app(t) else []
        if k == z3.Z3_OP_TO_REAL:
            return self.value(kids[0])
        if k == z3.Z3_OP_UMINUS:
            return frozenset(_neg(a) for a in self.value(kids[0]))
        if k in (z3.Z3_OP_ADD, z3.Z3_OP_SUB):
            acc = self.value(kids[0])
            for c in kids[1:]:
                right = self.value(c)
                if k == z3.Z3_OP_SUB:
                    right = frozenset(_neg(a) for a in right)
                acc = frozenset(_add(x, y) for x in acc for y in right)
            return acc
        if k == z3.Z3_OP_MUL:
            return self._product(kids)
        if k == z3.Z3_OP_DIV:
            return self._quotient(kids[0], kids[1])
        if k == z3.Z3_OP_ITE:
            return self._choice(*kids)
        raise _Bad(f"{t.decl().name()} of a term with an infinity in it")

    def _sign(self, t: z3.ExprRef) -> int:
        """+1 / −1 when a term free of infinities has a known nonzero sign, else 0."""
        if z3.is_rational_value(t) or z3.is_int_value(t):
            v = t.as_fraction() if z3.is_rational_value(t) else t.as_long()
            return (v > 0) - (v < 0)
        if t.get_id() in self.ctx.exp_base:
            return 1
        if z3.is_app(t) and t.decl().kind() == z3.Z3_OP_MUL:
            sign = 1
            for c in t.children():
                sign *= self._sign(c)
            return sign
        return 0

    def _product(self, kids) -> frozenset:
        classes = [self.value(c) for c in kids]
        if any(_is_zero(c) for c in kids):  # exactly 0 in both readings, unless 0 · ∞
            if any(a in _INFINITE for cls in classes for a in cls):
                raise _Bad("0 · ∞")
            return frozenset([FREE])
        acc, sign, infinite = frozenset([FREE]), 1, False
        for c in kids:
            cls = self.value(c)
            if cls == {FREE}:
                s = self._sign(c)
                sign *= s if s else 1
                if not s:
                    infinite = infinite or None  # unknown sign and possibly zero
                acc = frozenset(_times(x, FREE) for x in acc)
                continue
            acc = frozenset(_times(x, y) for x in acc for y in cls)
        if any(a in _INFINITE for a in acc):
            if infinite is None:
                raise _Bad("an infinity times a factor that may be 0 or change sign")
            if sign < 0:
                acc = frozenset(_neg(a) for a in acc)
        return acc

    def _quotient(self, num, den) -> frozenset:
        top, bottom = self.value(num), self.value(den)
        if bottom == {FREE}:
            if any(a in _INFINITE for a in top):
                s = self._sign(den)
                if not s:
                    raise _Bad("an infinity divided by a term of unknown sign")
                return top if s > 0 else frozenset(_neg(a) for a in top)
            return top
        if all(a in _INFINITE for a in bottom) and all(a in _FINITE for a in top):
            return frozenset([ZERO])
        raise _Bad("a division by a term that tends to 0, to ∞, or depends on ∞")

    def _choice(self, c, a, b) -> frozenset:
        outcome = self.test(c)
        if outcome == "T":
            return self.value(a)
        if outcome == "F":
            return self.value(b)
        left, right = self.value(a), self.value(b)
        if outcome == "bad":
            if left == right and len(left) == 1 and next(iter(left)) in _INFINITE:
                return left
            raise _Bad(f"the test {_short(c)} can come out differently at real infinity")
        return left | right

    # ------------------------------------------------------------------ tests
    def test(self, c: z3.ExprRef) -> str:
        """"T"/"F": the same fixed outcome in both readings; "free": the outcome
        does not depend on ∞; "mixed": either, by region; "bad": it may differ."""
        cid = c.get_id()
        if cid in self.test_memo:
            return self.test_memo[cid]
        if not self.mentions(c):
            out = "free"
        else:
            out = self._test(c)
        self.test_memo[cid] = out
        return out

    def _test(self, c: z3.ExprRef) -> str:
        k = c.decl().kind() if z3.is_app(c) else None
        kids = c.children() if z3.is_app(c) else []
        if k == z3.Z3_OP_NOT:
            return {"T": "F", "F": "T"}.get(self.test(kids[0]), self.test(kids[0]))
        if k in (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_IMPLIES):
            parts = [self.test(x) for x in kids]
            if k == z3.Z3_OP_IMPLIES:
                parts[0] = {"T": "F", "F": "T"}.get(parts[0], parts[0])
            decisive, other = ("F", "T") if k == z3.Z3_OP_AND else ("T", "F")
            if decisive in parts:  # one conjunct false (disjunct true) in both readings
                return decisive
            if "bad" in parts:
                return "bad"
            return other if all(p == other for p in parts) else "mixed"
        if k == z3.Z3_OP_ITE:
            cond = self.test(kids[0])
            if cond == "bad":
                return "bad"
            parts = [self.test(x) for x in kids[1:]]
            return "bad" if "bad" in parts else "mixed"
        if k in _CMP and len(kids) == 2 and z3.is_arith(kids[0]):
            return self._compare(k, kids[0], kids[1])
        raise _Bad(f"a test {_short(c)} with an infinity in it")

    def _compare(self, k, x, y) -> str:
        outcomes = set()
        for a in self.value(x):
            for b in self.value(y):
                if a == FREE and b == FREE:
                    outcomes.add("free")
                    continue
                order = _order(a, b)
                if order is None:
                    return "bad"
                outcomes.add("T" if _holds(k, order) else "F")
        return next(iter(outcomes)) if len(outcomes) == 1 else "mixed"


def _is_zero(t) -> bool:
    return (z3.is_rational_value(t) or z3.is_int_value(t)) and (
        t.as_fraction() if z3.is_rational_value(t) else t.as_long()) == 0


def _neg(a: str) -> str:
    return {NEG: POS, POS: NEG}.get(a, a)


def _add(x: str, y: str) -> str:
    if {x, y} == {NEG, POS}:
        raise _Bad("∞ − ∞")
    for inf in _INFINITE:
        if inf in (x, y):
            return inf
    if x == y:
        return x
    return NEAR


def _times(x: str, y: str) -> str:
    if (x in _INFINITE and y in (ZERO, NEAR)) or (y in _INFINITE and x in (ZERO, NEAR)):
        raise _Bad("0 · ∞")
    if x in _INFINITE and y in _INFINITE:
        return POS if x == y else NEG
    if x in _INFINITE or y in _INFINITE:
        return x if x in _INFINITE else y  # the sign of the finite factor is applied later
    if ZERO in (x, y):
        return ZERO
    if NEAR in (x, y):
        return NEAR
    return FREE


def _order(a: str, b: str):
    """-1 / +1 when a < b / a > b at every finite stand-in and at real ∞; None when
    undetermined."""
    if a in _INFINITE and b in _INFINITE:
        return None if a == b else (-1 if a == NEG else 1)
    if a in _INFINITE:
        return -1 if a == NEG else 1
    if b in _INFINITE:
        return 1 if b == NEG else -1
    return None


def _holds(k, order: int) -> bool:
    return {z3.Z3_OP_LE: order < 0, z3.Z3_OP_LT: order < 0, z3.Z3_OP_GE: order > 0,
            z3.Z3_OP_GT: order > 0, z3.Z3_OP_EQ: False, z3.Z3_OP_DISTINCT: True}[k]


def _short(t: Any, limit: int = 60) -> str:
    text = " ".join(str(t).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
