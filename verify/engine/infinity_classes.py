"""The classes of a term under the stand-ins for ±∞, by region (the analysis behind
``verify.engine.infinity``).

``Analysis.value`` maps each class to the z3 condition (over the variables, read the
same with the stand-ins as with real infinities) under which the term has it:

- ``F``: the same value in both readings;
- ``N``: a finite limit that the real evaluation reproduces (b + exp(L) → b);
- ``Z``: tends to 0 and is exactly 0 at the real infinity (exp(L − m));
- ``-`` / ``+``: tends to −∞ / +∞ and is −∞ / +∞ at the real infinity;
- ``nan``: NaN at the real infinity, as IEEE and Python floats give it: ∞ − ∞, 0·∞
  (a factor that is exactly 0, or tends to 0 and is 0 at the real infinity), ∞/∞, a
  root or log of −∞, and any operation on such a NaN.

``Analysis.test`` says whether a truth value reads the same in both readings: "T"/"F"
(fixed), "free" (no infinity in it), "mixed" (fixed by region), "bad" (may differ).
What it cannot follow raises ``Bad``; ``verify.engine.infinity`` says what that is.
"""
from __future__ import annotations

from typing import Any

import z3

from verify.engine import mathtext

FREE, NEAR, ZERO, NEG, POS, NAN = "F", "N", "Z", "-", "+", "nan"
_FINITE = (FREE, NEAR, ZERO)
_INFINITE = (NEG, POS)
_CMP = {z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT, z3.Z3_OP_EQ,
        z3.Z3_OP_DISTINCT}
_TRUE, _FALSE = z3.BoolVal(True), z3.BoolVal(False)

Classes = dict[str, z3.BoolRef]


class Bad(Exception):
    """The analysis cannot follow the term (the reason is the message)."""


def _conj(*conds: z3.BoolRef) -> z3.BoolRef:
    kept = []
    for c in conds:
        if z3.is_false(c):
            return _FALSE
        if not z3.is_true(c):
            kept.append(c)
    return _TRUE if not kept else kept[0] if len(kept) == 1 else z3.And(*kept)


def _put(out: Classes, cls: str, cond: z3.BoolRef) -> None:
    if z3.is_false(cond):
        return
    old = out.get(cls)
    out[cls] = cond if old is None else (
        _TRUE if z3.is_true(old) or z3.is_true(cond) else z3.Or(old, cond))


def _settle(out: Classes) -> Classes:
    """A term with one class has it everywhere (the classes cover every region)."""
    if len(out) == 1:
        return {next(iter(out)): _TRUE}
    return out


class Analysis:
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.memo: dict[int, Classes] = {}
        self.test_memo: dict[int, str] = {}
        self.mentions_memo: dict[int, bool] = {}
        self._keep: list[Any] = []  # the terms memoized by id stay alive
        self._inf: dict[int, str] = {}

    @property
    def inf(self) -> dict[int, str]:
        if len(self._inf) != len(self.ctx._inf):  # a symbol met later
            self._inf = {sym.get_id(): (NEG if key == "-inf" else POS)
                         for key, sym in self.ctx._inf.items()}
        return self._inf

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
        self._keep.append(t)
        return out

    # ------------------------------------------------------------------ values
    def value(self, t: z3.ExprRef) -> Classes:
        tid = t.get_id()
        if tid in self.memo:
            return self.memo[tid]
        out = {FREE: _TRUE} if not self.mentions(t) else _settle(self._value(t))
        self.memo[tid] = out
        return out

    def _value(self, t: z3.ExprRef) -> Classes:
        tid = t.get_id()
        if tid in self.inf:
            return {self.inf[tid]: _TRUE}
        part = self.ctx.partial.get(tid)
        if part is not None:
            table = {FREE: FREE, POS: POS, NEG: NAN, NAN: NAN}
            out: Classes = {}
            for cls, cond in self.value(part.arg).items():
                if cls not in table:
                    raise Bad(f"{part.kind} of a term that tends to a finite limit")
                _put(out, table[cls], cond)
            return out
        base = self.ctx.exp_base.get(tid)
        if base is not None:
            table = {FREE: FREE, NEAR: NEAR, ZERO: NEAR, NEG: ZERO, POS: POS, NAN: NAN}
            return self._relabel(self.value(base), table)
        k = t.decl().kind() if z3.is_app(t) else None
        kids = t.children() if z3.is_app(t) else []
        if k == z3.Z3_OP_TO_REAL:
            return self.value(kids[0])
        if k == z3.Z3_OP_UMINUS:
            return self._relabel(self.value(kids[0]), {NEG: POS, POS: NEG})
        if k in (z3.Z3_OP_ADD, z3.Z3_OP_SUB):
            acc = self.value(kids[0])
            for c in kids[1:]:
                right = self.value(c)
                if k == z3.Z3_OP_SUB:
                    right = self._relabel(right, {NEG: POS, POS: NEG})
                acc = self._pairs(acc, right, lambda x, y: [(_add(x, y), _TRUE)])
            return acc
        if k == z3.Z3_OP_MUL:
            return self._product(kids)
        if k == z3.Z3_OP_DIV:
            return self._quotient(t, kids[0], kids[1])
        if k == z3.Z3_OP_ITE:
            return self._choice(*kids)
        raise Bad(f"{t.decl().name()} of a term with an infinity in it")

    @staticmethod
    def _relabel(classes: Classes, table: dict[str, str]) -> Classes:
        out: Classes = {}
        for cls, cond in classes.items():
            _put(out, table.get(cls, cls), cond)
        return out

    @staticmethod
    def _pairs(left: Classes, right: Classes, combine) -> Classes:
        out: Classes = {}
        for x, cx in left.items():
            for y, cy in right.items():
                for cls, extra in combine(x, y):
                    _put(out, cls, _conj(cx, cy, extra))
        return out

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

    def _signed(self, inf: str, factor: z3.ExprRef, zero: str | None = NAN):
        """An infinity times (or over) a factor whose value is the real one: its sign
        by region; ``zero`` is the class where the factor is 0 (None: refused)."""
        if _is_zero(factor):
            if zero is None:
                raise Bad("an infinity divided by 0")
            return [(zero, _TRUE)]
        s = self._sign(factor)
        if s:
            return [(inf if s > 0 else _neg(inf), _TRUE)]
        if zero is None:
            raise Bad("an infinity divided by a term that may be 0 (±∞ of the zero's sign)")
        return [(inf, factor > 0), (_neg(inf), factor < 0), (zero, factor == 0)]

    def _product(self, kids) -> Classes:
        acc, acc_term = self.value(kids[0]), kids[0]
        for c in kids[1:]:
            def times(x, y, left=acc_term, right=c):
                if NAN in (x, y):
                    return [(NAN, _TRUE)]
                if x in _INFINITE and y in _INFINITE:
                    return [(POS if x == y else NEG, _TRUE)]
                if x in _INFINITE or y in _INFINITE:
                    inf, other, term = (x, y, right) if x in _INFINITE else (y, x, left)
                    if other == ZERO:
                        return [(NAN, _TRUE)]  # exactly 0 times ∞ at the real infinity
                    if other == NEAR:
                        raise Bad("an infinity times a term whose limit may be 0")
                    return self._signed(inf, term)
                return [(_times(x, y), _TRUE)]
            acc = self._pairs(acc, self.value(c), times)
            acc_term = acc_term * c
        return acc

    def _quotient(self, t, num, den) -> Classes:
        jit = t.get_id() in self.ctx.unbounded  # x/0 is ±∞ there; Python's / raises

        def divide(x, y):
            if NAN in (x, y):
                return [(NAN, _TRUE)]
            if x in _INFINITE and y in _INFINITE:
                return [(NAN, _TRUE)]
            if x in _INFINITE and y == FREE:
                # Python raises at a zero denominator (a side condition on the path)
                return self._signed(x, den, zero=None if jit else NAN)
            if y in _INFINITE:
                return [(ZERO, _TRUE)]
            if y == FREE:
                return [(x, _TRUE)]
            raise Bad("a division by a term that tends to 0, or to a limit that "
                       "depends on ∞")
        return self._pairs(self.value(num), self.value(den), divide)

    def _choice(self, c, a, b) -> Classes:
        outcome = self.test(c)
        if outcome == "T":
            return self.value(a)
        if outcome == "F":
            return self.value(b)
        if outcome != "bad":
            return self._merge(c, self.value(a), self.value(b))
        found = self._extremum(c, a, b)
        if found is not None:
            return found
        left, right = self.value(a), self.value(b)
        if len(left) == 1 and left.keys() == right.keys() and next(iter(left)) in _INFINITE:
            return left
        raise Bad(f"the test {_short(c)} can come out differently at real infinity")

    @staticmethod
    def _merge(c, left: Classes, right: Classes) -> Classes:
        out: Classes = {}
        for cls, cond in left.items():
            _put(out, cls, _conj(c, cond))
        for cls, cond in right.items():
            _put(out, cls, _conj(z3.Not(c), cond))
        return out

    def _extremum(self, c, a, b) -> Classes | None:
        """If(p ≥ q, p, q) and its kin (max, min, a guarded Python max): where p and q
        have the same infinite limit the test may read differently, but either branch
        is that infinity. None when ``c`` and the branches are not of this form."""
        peeled = peel(c)
        if peeled is None:
            return None
        guard, kind, p, q = peeled
        ids = (a.get_id(), b.get_id())
        if ids not in ((p.get_id(), q.get_id()), (q.get_id(), p.get_id())):
            return None
        if guard is not None and self.test(guard) == "bad":
            return None
        a_is_p = ids[0] == p.get_id()
        out: Classes = {}
        settled = _TRUE if guard is None else guard  # outside: the guard decides (F)
        if guard is not None:
            for cls, cond in self.value(b).items():
                _put(out, cls, _conj(z3.Not(guard), cond))
        # the classes never mention c, whose reading may differ: a test on them stays
        # decidable
        for i, ci in self.value(p).items():
            for j, cj in self.value(q).items():
                region = _conj(settled, ci, cj)
                cls_a, cls_b = (i, j) if a_is_p else (j, i)
                if NAN in (i, j):
                    # inside the guard no operand is NaN; an unguarded extremum (abs,
                    # maximum) sits under a value that is NaN there anyway
                    if guard is None:
                        _put(out, NAN, region)
                    continue
                if i == FREE and j == FREE:
                    _put(out, FREE, region)
                    continue
                order = _order(i, j)
                if order is None:
                    if i != j or i not in _INFINITE:
                        raise Bad(f"the test {_short(c)} can come out differently at "
                                   f"real infinity")
                    _put(out, i, region)
                    continue
                _put(out, cls_a if _holds(kind, order) else cls_b, region)
        return out

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
        if k in (z3.Z3_OP_XOR, z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT) and z3.is_bool(kids[0]):
            parts = [self.test(x) for x in kids]
            return "bad" if "bad" in parts else "mixed"
        if k == z3.Z3_OP_ITE:
            cond = self.test(kids[0])
            if cond == "bad":
                return "bad"
            parts = [self.test(x) for x in kids[1:]]
            return "bad" if "bad" in parts else "mixed"
        if k in _CMP and len(kids) == 2 and z3.is_arith(kids[0]):
            return self._compare(k, kids[0], kids[1])
        raise Bad(f"a test {_short(c)} with an infinity in it")

    def _compare(self, k, x, y) -> str:
        outcomes = set()
        for a in self.value(x):
            for b in self.value(y):
                if NAN in (a, b):  # decided by the test's IEEE guard, not the stand-ins
                    continue
                if a == FREE and b == FREE:
                    outcomes.add("free")
                    continue
                order = _order(a, b)
                if order is None:
                    return "bad"
                outcomes.add("T" if _holds(k, order) else "F")
        if not outcomes:
            return "free"
        return next(iter(outcomes)) if len(outcomes) == 1 else "mixed"


def peel(c):
    """(guard, kind, p, q) for a comparison p ⋈ q, its negation, or the IEEE form
    ``NanModel.test`` gives it (And(Not(nan), p ⋈ q): guard is Not(nan)); else None."""
    guard = None
    if z3.is_and(c) and len(c.children()) == 2 and z3.is_not(c.arg(0)):
        guard, c = c.arg(0), c.arg(1)
    negated = False
    if z3.is_not(c):
        negated, c = True, c.arg(0)
    if not (z3.is_app(c) and c.decl().kind() in _CMP and len(c.children()) == 2
            and z3.is_arith(c.arg(0))):
        return None
    kind = c.decl().kind()
    if negated:
        flip = {z3.Z3_OP_LE: z3.Z3_OP_GT, z3.Z3_OP_LT: z3.Z3_OP_GE, z3.Z3_OP_GE: z3.Z3_OP_LT,
                z3.Z3_OP_GT: z3.Z3_OP_LE, z3.Z3_OP_EQ: z3.Z3_OP_DISTINCT,
                z3.Z3_OP_DISTINCT: z3.Z3_OP_EQ}
        kind = flip[kind]
    return guard, kind, c.arg(0), c.arg(1)


def _is_zero(t) -> bool:
    return (z3.is_rational_value(t) or z3.is_int_value(t)) and (
        t.as_fraction() if z3.is_rational_value(t) else t.as_long()) == 0


def _neg(a: str) -> str:
    return {NEG: POS, POS: NEG}.get(a, a)


def _add(x: str, y: str) -> str:
    if NAN in (x, y) or {x, y} == {NEG, POS}:
        return NAN  # ∞ − ∞
    for inf in _INFINITE:
        if inf in (x, y):
            return inf
    if x == y:
        return x
    return NEAR


def _times(x: str, y: str) -> str:
    """Two finite classes."""
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
    text = mathtext.text(t) if isinstance(t, z3.ExprRef) else " ".join(str(t).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
