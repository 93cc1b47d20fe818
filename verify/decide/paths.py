"""Split an encoded law into its branch-free paths, for the exact rational path.

The z3 interpretation joins the paths a function takes with ``If``: a guarded Chan merge
``if na == 0: return b`` becomes ``If(na = 0, b, …)``, and the guard's condition can
itself hold ``If`` terms (the count of an inner merge). ``split`` enumerates the paths:
it picks an undecided ``If`` condition c in the terms, and follows c and ¬c in turn,
each only when the facts (domain, preconditions, stated assumptions) and the choices so
far are jointly satisfiable (z3 decides; a path it cannot rule out is kept). On each
path the terms are rebuilt with every decided ``If`` replaced by its chosen branch and
every variable the path pins (a condition ``v = k`` with k a number) replaced by k.
What is left is branch-free; the caller proves its identity path by path.

Why that is sound: at every point of the facts exactly one path's conditions hold (each
split is c or ¬c; a dropped path has no point), and there the rebuilt terms have the
values the original terms have, since every replacement used is true at that point.

Does not cover: more than ``MAX_PATHS`` paths (the answer is ``None``, no claim), and
conditions it cannot evaluate (they are only split on, never simplified beyond z3's own
``simplify`` of a Boolean condition).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import z3

from verify.decide.query import Query

MAX_PATHS = 64
FEASIBLE_MS = 1000


@dataclass
class Path:
    """One branch-free path: its conditions and the terms as they are on it."""

    conditions: list = field(default_factory=list)
    terms: list = field(default_factory=list)


@dataclass
class _State:
    conditions: list
    decided: dict          # condition id -> the branch taken
    pinned: dict           # variable id -> (variable, numeral)


def split(facts: list, terms: list, variables: Iterable[z3.ExprRef]) -> list[Path] | None:
    """Every path of ``terms`` the ``facts`` leave possible, or ``None`` past
    ``MAX_PATHS``. ``variables``: the law's variables (the ones a path may pin)."""
    names = {v.get_id() for v in variables}
    out: list[Path] = []
    stack = [_State([], {}, {})]
    budget = 8 * MAX_PATHS  # splits, counting those that one choice rules out
    while stack:
        budget -= 1
        if budget < 0:
            return None
        state = stack.pop()
        rebuilt = [_resolve(t, state, {}) for t in terms]
        cond = _first_open(rebuilt)
        if cond is None:
            out.append(Path(state.conditions, rebuilt))
            if len(out) > MAX_PATHS:
                return None
            continue
        for choice in (False, True):
            literal = cond if choice else z3.Not(cond)
            if not _possible(facts, state.conditions + [literal]):
                continue
            decided = dict(state.decided)
            decided[cond.get_id()] = choice
            pinned = dict(state.pinned)
            if choice:
                pin = _pin(cond, names)
                if pin is not None:
                    pinned[pin[0].get_id()] = pin
            stack.append(_State(state.conditions + [literal], decided, pinned))
    return out


def _possible(facts: list, conditions: list) -> bool:
    return Query([*facts, *conditions], FEASIBLE_MS).check() != z3.unsat


def _pin(cond: z3.BoolRef, names: set[int]):
    """(variable, numeral) when ``cond`` reads ``v = k`` or ``k = v``."""
    if not z3.is_eq(cond):
        return None
    a, b = cond.children()
    for v, k in ((a, b), (b, a)):
        if z3.is_const(v) and v.get_id() in names and _is_numeral(k):
            return v, k
    return None


def _is_numeral(t: z3.ExprRef) -> bool:
    return z3.is_rational_value(t) or z3.is_int_value(t)


def _decided(cond: z3.BoolRef, state: _State) -> bool | None:
    known = state.decided.get(cond.get_id())
    if known is not None:
        return known
    simple = z3.simplify(cond)
    if z3.is_true(simple):
        return True
    if z3.is_false(simple):
        return False
    return state.decided.get(simple.get_id())


def _resolve(t: z3.ExprRef, state: _State, memo: dict) -> z3.ExprRef:
    """``t`` with decided ``If``s replaced by their branch and pinned variables by
    their numerals (structure otherwise kept, so the caller sees the code's own
    divisions)."""
    key = t.get_id()
    if key in memo:
        return memo[key]
    if z3.is_const(t) and key in state.pinned:
        out = state.pinned[key][1]
    elif z3.is_app(t) and t.num_args() and t.decl().kind() == z3.Z3_OP_ITE:
        c, a, b = t.children()
        c = _resolve(c, state, memo)
        choice = _decided(c, state)
        if choice is None:
            out = z3.If(c, _resolve(a, state, memo), _resolve(b, state, memo))
        else:
            out = _resolve(a if choice else b, state, memo)
    elif z3.is_app(t) and t.num_args():
        kids = [_resolve(k, state, memo) for k in t.children()]
        same = all(k.get_id() == o.get_id() for k, o in zip(kids, t.children()))
        out = t if same else t.decl()(*kids)
    else:
        out = t
    memo[key] = out
    return out


def _first_open(terms: list, seen: set[int] | None = None) -> z3.BoolRef | None:
    """The condition of the first ``If`` left in ``terms``; when that condition holds an
    ``If`` itself, the innermost such condition (so a split can pin a variable)."""
    seen = set() if seen is None else seen
    for t in terms:
        if t.get_id() in seen or not z3.is_app(t):
            continue
        seen.add(t.get_id())
        if t.num_args() and t.decl().kind() == z3.Z3_OP_ITE:
            inner = _first_open([t.arg(0)], seen)
            return t.arg(0) if inner is None else inner
        inner = _first_open(t.children(), seen)
        if inner is not None:
            return inner
    return None
