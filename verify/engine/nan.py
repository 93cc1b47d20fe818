"""NaN in the z3 interpretation: where a value is NaN, and what a test on it answers.

A value of the z3 interpretation is a real term. Where the computation it stands for
gives NaN, that term's real value means nothing, and its *NaN condition* (a z3 Bool over
the inputs) says where that is. ``NanModel.condition(t)``:

- a NaN literal (``float("nan")``, ``math.nan``, ``np.nan``): everywhere (one shared
  symbol, whose real value is never read unguarded);
- ``sqrt``/``log`` of the numpy, torch and Triton kind where the argument is negative
  (``math.sqrt``/``math.log`` raise there instead: a side condition on the path);
- ``x / y`` inside a ``@triton.jit`` function where x = y = 0 (0/0; x/0 with x ≠ 0 is
  ±∞, not modelled: its use needs y ≠ 0, as before);
- any ``+ − × ÷``, exp, root or log of an operand that may be NaN: NaN propagates;
- ``If(c, a, b)``: a's condition where c holds, b's elsewhere (every ``If`` condition the
  interpretation builds has its IEEE meaning already, see ``test``).

``test(c)`` gives a comparison its IEEE meaning: ``<``, ``≤``, ``>``, ``≥``, ``==`` are
false and ``!=`` is true where an operand is NaN. Python ``if``, ``where`` and the
max/min words ask it, so ``r == r`` on an r that may be NaN forks on r's NaN condition
rather than being decided by its form; ``differ`` compares a law's two sides as the
oracle and the plain-Python runner do: NaN against a number differs, two NaN agree.

Where nothing can be NaN (no literal, no such root, log or division), ``condition`` is
false and ``test`` returns its argument: such functions are encoded exactly as before.

- arithmetic on the stand-ins for ±∞ where IEEE gives NaN (∞ − ∞, 0·∞, ∞/∞, a root
  or log of −∞): the NaN region ``verify.engine.infinity`` finds for the term.

``isnan``, ``infinite`` (``math.isinf``) and ``finite`` (``math.isfinite``) are these
regions as truth values to branch on. Two sides that are the same infinity agree.

Not covered (refused, ``Unsupported``): floor, trunc and floor division of a value that
may be NaN, ``isnan``/``isinf``/``isfinite`` of a value that may be the −∞ of a log of
0 or the ±∞ of x/0 inside ``@triton.jit`` (neither is modelled), and a bounded law
whose sides may be NaN.
"""
from __future__ import annotations

from typing import Any

import z3

from verify.engine import infinity
from verify.engine.interp import Unsupported

_FALSE = z3.BoolVal(False)
_ORDER = (z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE, z3.Z3_OP_GT, z3.Z3_OP_EQ)
_CONNECTIVES = (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_NOT, z3.Z3_OP_IMPLIES, z3.Z3_OP_XOR,
                z3.Z3_OP_ITE)


def any_of(*conds: Any) -> z3.BoolRef:
    """The disjunction, without the conditions that are plainly false."""
    kept = [c for c in conds if c is not None and not z3.is_false(c)]
    if any(z3.is_true(c) for c in kept):
        return z3.BoolVal(True)
    if not kept:
        return _FALSE
    return kept[0] if len(kept) == 1 else z3.Or(*kept)


class NanModel:
    """The NaN conditions of one ``Z3Context``'s terms."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.symbol: z3.ArithRef | None = None      # the NaN literal
        self.sources: dict[int, tuple[Any, z3.BoolRef]] = {}  # term id -> (term, own cond)
        self._memo: dict[int, tuple[Any, z3.BoolRef]] = {}     # holds the term: ids stay
        self.from_infinity = False  # some term is NaN by arithmetic on ±∞ somewhere
        # If terms built here whose NaN condition is known without their branch test
        # (which may read differently at ±∞): id -> (term, condition)
        self.known: dict[int, tuple[Any, z3.BoolRef]] = {}

    def active(self) -> bool:
        return self.symbol is not None or bool(self.sources) or bool(self.ctx._inf)

    def used(self) -> bool:
        """Whether any value may be NaN (a literal, a NaN-making operation)."""
        return self.symbol is not None or bool(self.sources) or self.from_infinity

    # ------------------------------------------------------------------ sources
    def literal(self) -> z3.ArithRef:
        if self.symbol is None:
            self.symbol = z3.Real("NaN!")
        return self.symbol

    def source(self, term: Any, own: z3.BoolRef) -> None:
        """``term`` (a fresh root or log symbol, a division) is NaN where ``own`` holds,
        besides where its operands are."""
        own = z3.simplify(own)
        if not z3.is_false(own):
            self.sources[term.get_id()] = (term, own)
            self._memo.clear()  # a division can be a term met before, now a jit one

    def poison(self, cond: z3.BoolRef, value: Any) -> Any:
        """``value`` where ``cond`` is false, NaN where it holds."""
        if z3.is_false(cond):
            return value
        return z3.If(cond, self.literal(), value)

    # ------------------------------------------------------------------ conditions
    def condition(self, t: Any) -> z3.BoolRef:
        """Where the value ``t`` is NaN."""
        if not self.active() or not z3.is_expr(t) or not z3.is_arith(t):
            return _FALSE
        return self._condition(t)

    def _condition(self, t: z3.ExprRef) -> z3.BoolRef:
        tid = t.get_id()
        hit = self._memo.get(tid)
        if hit is not None:
            return hit[1]
        out = self._compute(t)
        self._memo[tid] = (t, out)
        return out

    def _compute(self, t: z3.ExprRef) -> z3.BoolRef:
        if self.symbol is not None and t.eq(self.symbol):
            return z3.BoolVal(True)
        ctx, tid = self.ctx, t.get_id()
        own = self.sources.get(tid, (None, None))[1]
        base = ctx.exp_base.get(tid)
        if base is not None:
            return self._condition(base)
        ite = z3.is_app(t) and t.decl().kind() == z3.Z3_OP_ITE
        if not ite:  # ∞ − ∞, 0·∞, ∞/∞, √−∞ below this node
            made = infinity.nan_region(ctx, t)
            if not z3.is_false(made):
                self.from_infinity = True
                own = any_of(own, made)
        part = ctx.partial.get(tid)
        if part is not None:
            inner = self._condition(part.arg) if z3.is_expr(part.arg) else _FALSE
            return any_of(inner, own)
        if not z3.is_app(t):
            return own if own is not None else _FALSE
        kids = t.children()
        if ite:
            c, a, b = kids
            known = self.known.get(tid)
            if known is not None:
                return known[1]
            fixed = infinity.fixed_outcome(ctx, c)
            if fixed is not None:  # the other branch is never taken (L ≥ x)
                return self._condition(a if fixed else b)
            na, nb = self._condition(a), self._condition(b)
            if z3.is_false(na) and z3.is_false(nb):
                return _FALSE
            if na.eq(nb):
                return na
            guard = infinity.guarded_extremum(ctx, c, a, b)
            if guard is not None:  # not c, whose reading may differ at ±∞
                return z3.And(guard, nb)
            return any_of(z3.And(c, na) if not z3.is_false(na) else None,
                          z3.And(z3.Not(c), nb) if not z3.is_false(nb) else None)
        return any_of(own, *[self._condition(k) for k in kids if z3.is_arith(k)])

    # ------------------------------------------------------------------ tests
    def test(self, c: Any) -> Any:
        """``c`` with its IEEE meaning where an operand may be NaN."""
        if not self.active() or not z3.is_expr(c) or not z3.is_bool(c):
            return c
        return self._test(c)

    def _test(self, c: z3.BoolRef) -> z3.BoolRef:
        if not z3.is_app(c):
            return c
        k, kids = c.decl().kind(), c.children()
        if k in _CONNECTIVES or (k == z3.Z3_OP_EQ and z3.is_bool(kids[0])):
            parts = [self._test(x) if z3.is_bool(x) else x for x in kids]
            if all(p.eq(x) for p, x in zip(parts, kids)):
                return c
            return c.decl()(*parts)
        if k in _ORDER or k == z3.Z3_OP_DISTINCT:
            if not all(z3.is_arith(x) for x in kids):
                return c
            nan = any_of(*[self._condition(x) for x in kids])
            if z3.is_false(nan):
                return c
            return z3.Or(nan, c) if k == z3.Z3_OP_DISTINCT else z3.And(z3.Not(nan), c)
        return c

    def differ(self, a: Any, b: Any, unequal: z3.BoolRef) -> z3.BoolRef:
        """Two sides differ: one NaN and the other not, or neither NaN, not the same
        infinity, and ``unequal``. Truth values differ by their IEEE meaning."""
        if z3.is_expr(a) and z3.is_bool(a) and z3.is_expr(b) and z3.is_bool(b):
            return z3.Xor(self.test(a), self.test(b))
        pos_a, neg_a = infinity.infinite_regions(self.ctx, a)
        pos_b, neg_b = infinity.infinite_regions(self.ctx, b)
        same = any_of(z3.And(pos_a, pos_b) if not z3.is_false(pos_a) and
                      not z3.is_false(pos_b) else None,
                      z3.And(neg_a, neg_b) if not z3.is_false(neg_a) and
                      not z3.is_false(neg_b) else None)
        if not z3.is_false(same):
            unequal = z3.And(z3.Not(same), unequal)
        na, nb = self.condition(a), self.condition(b)
        if z3.is_false(na) and z3.is_false(nb):
            return unequal
        return z3.Or(z3.Xor(na, nb), z3.And(z3.Not(na), z3.Not(nb), unequal))

    def refuse(self, t: Any, what: str) -> None:
        """``Unsupported`` when ``t`` may be NaN (``what`` has no NaN meaning here)."""
        if not z3.is_false(self.condition(t)):
            raise Unsupported(f"{what} on a value that may be NaN has no z3 encoding")

    # ------------------------------------------------------------------ the words
    def _know(self, term: Any, cond: z3.BoolRef) -> Any:
        if z3.is_expr(term) and z3.is_app(term) and term.decl().kind() == z3.Z3_OP_ITE:
            self.known[term.get_id()] = (term, cond)
        return term

    def maximum(self, a: Any, b: Any, ge: bool = True) -> Any:
        """``tl.maximum``/``np.maximum`` (``ge``) or ``minimum``: NaN propagates."""
        value = z3.If(a >= b, a, b) if ge else z3.If(a <= b, a, b)
        nan = any_of(self.condition(a), self.condition(b))
        return self._know(self.poison(nan, value), nan)

    def fmax(self, a: Any, b: Any, ge: bool = True) -> Any:
        """``np.fmax`` (``ge``) or ``np.fmin``: a NaN argument is ignored."""
        value = z3.If(a >= b, a, b) if ge else z3.If(a <= b, a, b)
        na, nb = self.condition(a), self.condition(b)
        if z3.is_false(na) and z3.is_false(nb):
            return value
        both = _FALSE if z3.is_false(na) or z3.is_false(nb) else z3.And(na, nb)
        return self._know(z3.If(na, b, z3.If(nb, a, value)), both)

    def python_max(self, a: Any, b: Any, greater: bool = True) -> Any:
        """Python's ``max(a, b)`` (``greater``) or ``min``: b where b > a (b < a), else
        a, so ``max(nan, 1)`` is nan and ``max(1, nan)`` is 1."""
        if z3.is_false(any_of(self.condition(a), self.condition(b))):
            return z3.If(a >= b, a, b) if greater else z3.If(a <= b, a, b)
        return z3.If(self.test(b > a if greater else b < a), b, a)

    def isnan(self, x: Any) -> Any:
        """``math.isnan``/``np.isnan``: the NaN condition, a truth value to branch on."""
        self._refuse_unmodelled(x, "isnan")
        return self.condition(x)

    def infinite(self, x: Any) -> Any:
        """``math.isinf``/``np.isinf``: where x is ±∞ (a stand-in's limit), never where
        it is NaN."""
        self._refuse_unmodelled(x, "isinf")
        pos, neg = infinity.infinite_regions(self.ctx, x)
        region = any_of(pos, neg)
        if z3.is_false(region):
            return _FALSE
        nan = self.condition(x)
        return region if z3.is_false(nan) else z3.And(z3.Not(nan), region)

    def finite(self, x: Any) -> Any:
        """``math.isfinite``/``np.isfinite``: neither ±∞ nor NaN."""
        return z3.Not(any_of(self.infinite(x), self.condition(x)))

    def _refuse_unmodelled(self, x: Any, word: str) -> None:
        if infinity.may_be_infinite(self.ctx, x, stand_ins=False):
            raise Unsupported(f"{word} of a value that may be the −∞ of a log of 0 or the "
                              "±∞ of x/0 inside @triton.jit, which are not modelled")
