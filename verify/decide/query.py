"""One z3 query, asked in a context of its own.

z3's search, and so the model it returns and sometimes whether it answers before its
timeout, depends on the ids of the terms it is given. In z3's shared context those ids
depend on every term the process built before, so the same claim could be refuted
with one counterexample when audited alone, with another inside a test suite, and
time out in a third order. ``Query`` copies the assertions into a fresh context, where
the ids depend only on the query: the same query gets the same answer every time.

>>> import z3
>>> x = z3.Real("x")
>>> q = Query([x * x == 2, x > 0], timeout_ms=1000)
>>> q.check() == z3.sat
True
>>> q.value(x).approx(3).as_decimal(3)
'1.414?'
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterable

import z3


class Query:
    """``assertions`` (z3 booleans, or Python bools) copied into a fresh context; ``check``
    asks z3, ``value`` reads a term of the caller's context in the model found."""

    def __init__(self, assertions: Iterable, timeout_ms: int):
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.set("timeout", int(timeout_ms))
        self.solver.add(*[self._own(a) for a in assertions])
        self._model: z3.ModelRef | None = None

    def _own(self, a) -> z3.BoolRef:
        if isinstance(a, bool):
            return z3.BoolVal(a, ctx=self.ctx)
        return a.translate(self.ctx)

    def check(self) -> z3.CheckSatResult:
        answer = self.solver.check()
        self._model = self.solver.model() if answer == z3.sat else None
        return answer

    def value(self, term: z3.ExprRef) -> z3.ExprRef:
        """``term`` evaluated in the model of the last ``check`` (which was sat)."""
        if self._model is None:
            raise ValueError("no model: the last check was not sat")
        return self._model.eval(term.translate(self.ctx), model_completion=True)

    def number(self, term: z3.ExprRef) -> int | Fraction | None:
        """``term``'s value in the model as a Python number: an int for an integer, a
        Fraction for a rational, an algebraic number to 40 decimals; None otherwise."""
        val = self.value(term)
        if z3.is_int_value(val):
            return val.as_long()
        if z3.is_rational_value(val):
            return Fraction(val.numerator_as_long(), val.denominator_as_long())
        if z3.is_algebraic_value(val):
            approx = val.approx(40)
            return Fraction(approx.numerator_as_long(), approx.denominator_as_long())
        return None

    def reason_unknown(self) -> str:
        return self.solver.reason_unknown()
