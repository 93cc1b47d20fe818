"""Exact proof of an identity between rational functions, when z3's search times out.

A law whose sides, under the z3 interpretation, are built from variables, rational
numerals, ``+``, ``−``, ``·``, integer powers, ``/`` and branches (``If`` from a Python
``if``, ``max``, ``where``) whose conditions are comparisons, with no exp/log/sqrt symbol
and no ±∞, is proved path by path. ``verify.decide.paths`` splits it on its branch
conditions into the paths the domain and the stated assumptions leave possible (each a
conjunction of branch conditions; a variable a path pins to a number, ``n = 0``, is
replaced by it). On each path each side is brought to one fraction N/D, where D is a
product of the code's own denominators, and ``N_l·D_r − N_r·D_l`` is expanded into a
sum of monomials: zero means the sides agree on the path wherever the denominators are
nonzero; otherwise z3 is asked whether the difference is zero under the path's
conditions. Every denominator left on a path must be nonzero there by the facts
(domain, preconditions, stated assumptions); each partial operation's condition is
assumed only on the paths that use it (``prover._assume``), and stated. z3's nonlinear
search can time out on such claims (Chan's merge of (count, mean, M₂) over all reals,
with or without an ``n = 0`` guard) while the expansion takes milliseconds.

Does not cover: transcendental functions, integer or floor division, bounded
(approximation) laws, more than ``paths.MAX_PATHS`` paths; for those the answer is
``None`` and the caller keeps the prover's verdict. A path where the identity fails
proves nothing either way (no refutation comes from here).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import z3

from laws.core import BOUNDED, Law
from verify.engine.interp import Unsupported
from verify.decide import paths
from verify.decide.query import Query
from verify.decide.prover import _assume, _implied, encode_sides
from verify.engine.z3interp import Z3Context, _as_expr

ENCODING = "rational-function identity"
_CONSISTENCY_MS = 2000
_PATH_MS = 2000


class _NotRational(Exception):
    pass


@dataclass
class Identity:
    """A rational-function identity: the assumptions it needs (each denominator the
    domain does not keep away from zero) and what the witness check needs to replay it."""

    assumptions: list[str]
    seconds: float
    ctx: Z3Context
    vars: tuple
    facts: list
    conditions: list
    terms: list
    regions: list  # the condition of each path the identity was shown on


def identity(law: Law, instance: Mapping[str, Any] = {}) -> Identity | None:
    """The identity when both sides are the same rational function on every path the
    domain and the stated assumptions leave possible, else ``None``."""
    if law.exactness == BOUNDED:
        return None
    t0 = time.perf_counter()
    ctx = Z3Context()
    try:
        vars_, _values, lhs, rhs, pre = encode_sides(law, instance, ctx)
        if len(lhs) != len(rhs) or not ctx.only_rational():
            return None
        terms = [_as_expr(t, ctx) for t in lhs + rhs]
        pre = [p if z3.is_expr(p) else z3.BoolVal(bool(p)) for p in pre]
        facts, assumptions, conditions = _assume(ctx, terms, pre)
    except (Unsupported, z3.Z3Exception):
        return None
    if Query(facts, _CONSISTENCY_MS).check() != z3.sat:
        return None  # a vacuous or undecided domain: no claim
    found = paths.split(facts, terms, ctx.variables.values())
    if found is None:
        return None
    variables = {v.get_id(): i for i, v in enumerate(ctx.variables.values())}
    for path in found:
        if not _holds_on(path, facts, variables):
            return None
    return Identity(assumptions, time.perf_counter() - t0, ctx, tuple(vars_), facts,
                    conditions, terms, [z3.And(*p.conditions) for p in found])


def _holds_on(path: paths.Path, facts: list, variables: dict[int, int]) -> bool:
    """Whether the two sides agree on ``path``: the same rational function, or (when
    the path pins or relates variables) a difference z3 shows is zero there. Every
    division left on the path must have a denominator the facts keep nonzero."""
    side = facts + path.conditions
    half = len(path.terms) // 2
    try:
        for a, b in zip(path.terms[:half], path.terms[half:], strict=True):
            na, da = _fraction(a, variables)
            nb, db = _fraction(b, variables)
            if _add(_mul(na, db), _mul(nb, da), -1) and not _zero_on(side, a, b):
                return False
    except (_NotRational, Unsupported, z3.Z3Exception):
        return False
    return all(_implied(side, den != 0) for den in _denominators(path.terms))


def _zero_on(side: list, a: z3.ExprRef, b: z3.ExprRef) -> bool:
    return Query([*side, a != b], _PATH_MS).check() == z3.unsat


def _denominators(terms: list) -> list[z3.ExprRef]:
    """Each distinct non-numeral denominator of a division in ``terms``."""
    out: dict[int, z3.ExprRef] = {}
    seen: set[int] = set()
    stack = list(terms)
    while stack:
        t = stack.pop()
        if t.get_id() in seen or not z3.is_app(t):
            continue
        seen.add(t.get_id())
        if t.decl().kind() in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV):
            den = t.arg(1)
            if not (z3.is_rational_value(den) or z3.is_int_value(den)):
                out.setdefault(den.get_id(), den)
        stack.extend(t.children())
    return list(out.values())


Poly = dict  # monomial (sorted tuple of (variable index, power)) -> Fraction coefficient


def _const(q) -> Poly:
    q = Fraction(q)
    return {(): q} if q else {}


def _add(p: Poly, q: Poly, sign: int = 1) -> Poly:
    out = dict(p)
    for m, c in q.items():
        v = out.get(m, 0) + sign * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    return out


def _mul(p: Poly, q: Poly) -> Poly:
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            powers = dict(m1)
            for v, k in m2:
                powers[v] = powers.get(v, 0) + k
            m = tuple(sorted(powers.items()))
            c = out.get(m, 0) + c1 * c2
            if c:
                out[m] = c
            else:
                out.pop(m, None)
    return out


def _numeral(t: z3.ExprRef) -> Fraction:
    if z3.is_int_value(t):
        return Fraction(t.as_long())
    return Fraction(t.numerator_as_long(), t.denominator_as_long())


def _fraction(t: z3.ExprRef, variables: dict[int, int]) -> tuple[Poly, Poly]:
    """(N, D), polynomials with exact coefficients, t = N/D wherever the code's
    denominators are nonzero (D is a product of those denominators' numerators)."""
    if z3.is_rational_value(t) or z3.is_int_value(t):
        return _const(_numeral(t)), _const(1)
    if z3.is_const(t):
        if t.get_id() not in variables:
            raise _NotRational(str(t))
        return {((variables[t.get_id()], 1),): Fraction(1)}, _const(1)
    if not z3.is_app(t):
        raise _NotRational(str(t))
    kind = t.decl().kind()
    if kind == z3.Z3_OP_POWER:
        return _power(t, variables)
    args = [_fraction(c, variables) for c in t.children()]
    if kind == z3.Z3_OP_TO_REAL:
        return args[0]
    if kind == z3.Z3_OP_UMINUS:
        return _add({}, args[0][0], -1), args[0][1]
    if kind in (z3.Z3_OP_ADD, z3.Z3_OP_SUB):
        sign = 1 if kind == z3.Z3_OP_ADD else -1
        n, d = args[0]
        for n2, d2 in args[1:]:
            n, d = _add(_mul(n, d2), _mul(n2, d), sign), _mul(d, d2)
        return n, d
    if kind == z3.Z3_OP_MUL:
        n, d = args[0]
        for n2, d2 in args[1:]:
            n, d = _mul(n, n2), _mul(d, d2)
        return n, d
    if kind == z3.Z3_OP_DIV:
        (n1, d1), (n2, d2) = args
        if not n2:
            raise _NotRational("division by zero")
        return _mul(n1, d2), _mul(d1, n2)
    raise _NotRational(str(t))


def _power(t: z3.ExprRef, variables: dict[int, int]) -> tuple[Poly, Poly]:
    base, exponent = t.children()
    if not (z3.is_int_value(exponent) or z3.is_rational_value(exponent)):
        raise _NotRational(str(t))
    k = _numeral(exponent)
    if k.denominator != 1 or not 0 <= k <= 16:
        raise _NotRational(str(t))
    n, d = _fraction(base, variables)
    n_out, d_out = _const(1), _const(1)
    for _ in range(int(k)):
        n_out, d_out = _mul(n_out, n), _mul(d_out, d)
    return n_out, d_out

