"""A model z3 gives on the boundary of a test, moved off it.

z3 readily answers with a point where a test of the function is a tie over ℝ
(|b − a| = 10⁻⁹·|b| exactly for ``math.isclose``): the replay then sees the branch go by
rounding and confirms nothing, although points on either side of the boundary may
separate the sides. ``nearby`` tries the model's components rounded to doubles, each
component moved by a relative 2⁻³⁰ up and down, then (models of up to 4 numbers) each
replaced by a small number, and returns the first that the oracle confirms (every such
point is replayed like any other; nothing is assumed about it).
The same points are tried when plain Python cannot replay a counterexample the oracle
confirmed (a difference too small for a double to show, a test tied in doubles).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterator, Mapping

from laws.core import Law
from verify.decide import oracle
from verify.engine.shapes import flatten, shape_like

STEP = Fraction(1, 2 ** 30)
MAX_COMPONENTS = 16  # past it the model is not moved (2 candidates per component)
# then each component of a small model replaced by a small number: a difference over ℝ
# that doubles round away at 1 (1·0.1·10 is 1.0 in Python) shows at 3
SIMPLE = (0, 1, -1, 2, -2, 3, -3, 10, -10, Fraction(1, 2), Fraction(-1, 2))
MAX_SIMPLE_COMPONENTS = 4


def _exact(x: Any) -> Fraction | None:
    if isinstance(x, bool):
        return None
    try:
        return Fraction(x)
    except (TypeError, ValueError, OverflowError):
        return None


def _double(q: Fraction) -> Fraction | None:
    try:
        return Fraction(float(q))
    except OverflowError:
        return None


def _candidates(law: Law, values: list[Any], instance: Mapping[str, Any]
                ) -> Iterator[list[Any]]:
    vars_ = law.vars_for(instance)
    flat = [list(flatten(v)) for v in values]
    size = sum(len(c) for c in flat)
    if size > MAX_COMPONENTS:
        return

    def build(change) -> list[Any]:
        return [shape_like(v, [change(vi, ci, x) for ci, x in enumerate(comps)])
                for vi, (v, comps) in enumerate(zip(vars_, flat))]

    def replacing(at: tuple[int, int], new: Any) -> list[Any]:
        return build(lambda i, j, y: new if (i, j) == at else y)

    def to_double(vi, ci, x):
        q = _exact(x)
        d = _double(q) if q is not None else None
        return d if d is not None else x
    rounded = build(to_double)
    if rounded != values:
        yield rounded
    for vi, comps in enumerate(flat):
        for ci, x in enumerate(comps):
            q = _exact(x)
            if q is None:
                continue
            for sign in (1, -1):
                yield replacing((vi, ci), q * (1 + sign * STEP) if q else sign * STEP)
    if size > MAX_SIMPLE_COMPONENTS:
        return
    for vi, comps in enumerate(flat):  # one component at a time, a small number
        for ci, x in enumerate(comps):
            q = _exact(x)
            for c in SIMPLE:
                if q != c:
                    yield replacing((vi, ci), c)


def nearby(law: Law, values: list[Any], instance: Mapping[str, Any] = {},
           also: Callable[[list[Any]], bool] | None = None) -> list[Any] | None:
    """The first point near ``values`` the oracle confirms as a counterexample (and
    ``also`` accepts, where given), or None."""
    for candidate in _candidates(law, values, instance):
        if oracle.confirms(law, candidate, instance) and (also is None or also(candidate)):
            return candidate
    return None
