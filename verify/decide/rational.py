"""Exact proof of an identity between rational functions, when z3's search times out.

A law whose sides, under the z3 interpretation, are built from variables, rational
numerals, ``+``, ``−``, ``·``, integer powers and ``/`` only (no branch, no ``If``, no
exp/log/sqrt symbol, no ±∞) is an identity of rational functions. Each side is brought
to one fraction N/D, where D is a product of the code's own denominators (each assumed
nonzero, and stated), and ``N_l·D_r − N_r·D_l`` is expanded into a sum of monomials:
the law holds wherever every denominator is nonzero exactly when that polynomial is
identically zero. z3's nonlinear search can time out on such claims (Chan's merge of
(count, mean, M₂) over all reals) while the expansion takes milliseconds.

Does not cover: branches (a Python ``if`` or ``max``), transcendental functions, integer
division, bounded (approximation) laws; for those the answer is ``None`` and the caller
keeps the prover's verdict. A polynomial that is not zero proves nothing either way.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import z3

from laws.core import BOUNDED, Law
from verify.engine.interp import Unsupported
from verify.decide.prover import _implied, _short, encode_sides
from verify.engine.definedness import use_conditions
from verify.engine.z3interp import Z3Context, _as_expr

ENCODING = "rational-function identity"
_CONSISTENCY_MS = 2000


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


def identity(law: Law, instance: Mapping[str, Any] = {}) -> Identity | None:
    """The identity when both sides are the same rational function, else ``None``."""
    if law.exactness == BOUNDED:
        return None
    t0 = time.perf_counter()
    ctx = Z3Context()
    try:
        vars_, _values, lhs, rhs, pre = encode_sides(law, instance, ctx)
    except Unsupported:
        return None
    if len(lhs) != len(rhs):
        return None
    variables = {v.get_id(): i for i, v in enumerate(ctx.variables.values())}
    try:
        for a, b in zip(lhs, rhs, strict=True):
            na, da = _fraction(_as_expr(a, ctx), variables)
            nb, db = _fraction(_as_expr(b, ctx), variables)
            if _add(_mul(na, db), _mul(nb, da), -1):
                return None
    except (_NotRational, Unsupported, z3.Z3Exception):
        return None
    facts = list(ctx.side) + [p if z3.is_expr(p) else z3.BoolVal(bool(p)) for p in pre]
    terms = [_as_expr(t, ctx) for t in lhs + rhs]
    # No branch reaches here, so every partial operation is used on every path: each
    # condition holds unguarded.
    assumptions: list[str] = []
    conditions: list = []
    for _guard, cond, text in use_conditions(ctx, terms):
        if _implied(facts, cond):
            continue
        conditions.append(cond)
        if _short(text) not in assumptions:
            assumptions.append(_short(text))
    consistent = z3.Solver()
    consistent.set("timeout", _CONSISTENCY_MS)
    consistent.add(*facts, *conditions)
    if consistent.check() != z3.sat:
        return None  # a vacuous or undecided domain: no claim
    return Identity(assumptions, time.perf_counter() - t0, ctx, tuple(vars_),
                    facts + conditions, conditions, terms)


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

