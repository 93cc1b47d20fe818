"""Does the audited combine have an identity element, and which?

Candidates: a real element z3 solves for from ``f(e, a) = a = f(a, e)`` at sample
points, then 0, 1, −∞, +∞ (per component for tuple states). A candidate that fails at
a check point (replayed at two precisions) is dropped; the first one proved (or else
tested) is reported. "No identity" (refuted) only when z3 shows no real element fits
the sample points and the infinite candidates fail too.

Does not cover: tuple elements mixing ±∞ with other values when z3 finds none with
finite components (the verdict is then unknown).
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import z3

from laws.core import Property
from laws import templates as T
from verify.auditing.properties import Prop, identity_prop, make_law
from verify.auditing.report import entry, judge, skipped
from verify.auditing.signature import PROBE_SECONDS, SCALAR, Shape
from verify.auditing.trace import show
from verify.decide import oracle
from verify.decide.query import Query
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.decide.policy import Policy
from verify.engine.shapes import flatten
from verify.engine.z3interp import Z3Context, _as_expr, evaluate

PROVED, TESTED, UNKNOWN, REFUTED = "proved", "tested", "unknown", "refuted"
NEG_INF, POS_INF = float("-inf"), float("inf")


def _samples(s: Shape) -> list[Any]:
    """Points at which the identity equations are instantiated (integers: the exp
    encoding needs integer coefficients)."""
    if s.kind == "scalar":
        return [1, 2, -3, 5]
    base = [[1, 2, -3, 5, 7, -2], [2, -1, 4, 3, -5, 6], [-3, 5, 2, -1, 2, 9],
            [5, 3, 1, -4, 1, 2]]
    return [tuple(b[i % len(b)] for i in range(s.size)) for b in base]


def _check_points(s: Shape) -> list[Any]:
    pts = [0, 1, -1, 2, Fraction(1, 2), -3]
    if s.kind == "scalar":
        return pts
    return [tuple(pts[(i + j) % len(pts)] for i in range(s.size)) for j in range(6)]


def _candidate_elements(s: Shape) -> list[Any]:
    base = [0, 1, NEG_INF, POS_INF]
    if s.kind == "scalar":
        return list(base)
    if s.size > 4:
        return [tuple([c] * s.size) for c in base]
    return [tuple(c) for c in itertools.product(base, repeat=s.size)]


def _mismatch(g, e, a) -> bool:
    """f(e, a) = a = f(a, e) fails at ``a`` (confirmed at two precisions), evaluated
    as written (no domain guard: f(∞, a) = nan is a mismatch). A point where f raises
    (a zero denominator) decides nothing."""
    prop = identity_prop(_shape_of_value(a), e)
    law = make_law(prop, g, guarded=False)
    try:
        with time_limit(PROBE_SECONDS):
            return oracle.gap(law, [a]).differs
    except (Exception, TimeLimit):  # undefined at this point: no evidence either way
        return False


def _shape_of_value(a) -> Shape:
    return Shape("tuple", len(a)) if isinstance(a, tuple) else SCALAR


def _z3_solve(g, s: Shape, policy: Policy) -> tuple[str, Any, str]:
    """Solve f(e, a) = a = f(a, e) for a real e at the sample points.
    ('unsat', None, why) proves that no real e exists; ('sat', e, '') gives a candidate;
    ('unknown', None, why) otherwise."""
    ctx = Z3Context()
    try:
        with time_limit(policy.prove_seconds):
            answer, query, e = _z3_identity_query(ctx, g, s, policy.timeout_ms)
    except (Exception, TimeLimit) as exc:  # a construct z3 cannot follow, or a timeout
        return UNKNOWN, None, f"z3 could not solve for e ({one_line(exc)})"
    if answer == z3.unsat:
        if ctx.infinity_facts():
            # ±∞ literals are modeled as finite symbols: unsat of that model says
            # nothing about the function as written.
            return UNKNOWN, None, "the function uses ±∞ literals, which the z3 model of e " \
                                  "cannot represent faithfully"
        return "unsat", None, ""
    if answer != z3.sat:
        return UNKNOWN, None, f"z3: {query.reason_unknown()}"
    comps = []
    for v in flatten(e):
        val = query.value(v)
        if not z3.is_rational_value(val):
            return "sat", None, ""
        comps.append(_nice(Fraction(val.numerator_as_long(), val.denominator_as_long())))
    if any(c is None for c in comps):
        return "sat", None, ""
    return "sat", (tuple(comps) if s.kind != "scalar" else comps[0]), ""


def _z3_identity_query(ctx: Z3Context, g, s: Shape, timeout_ms: int):
    e = ctx.make(s.var("e"))
    fn = ctx.interp.rebind(g)
    eqs = []
    for a in _samples(s):
        a_z = _z3_const(a)
        left = flatten(evaluate(ctx, lambda a_z=a_z: fn(e, a_z)))
        right = flatten(evaluate(ctx, lambda a_z=a_z: fn(a_z, e)))
        target = flatten(a_z)
        for u, v in zip(left + right, target + target, strict=False):
            u, v = _as_expr(u, ctx), _as_expr(v, ctx)  # a NaN side equals no number
            eqs.append(z3.Not(ctx.nan.differ(u, v, u != v)) if z3.is_arith(u) else u == v)
    query = Query(ctx.side + ctx.exp_facts() + ctx.infinity_facts() + eqs, timeout_ms)
    return query.check(), query, e


def _z3_const(a):
    if isinstance(a, tuple):
        return tuple(_z3_const(x) for x in a)
    return z3.RealVal(a) if isinstance(a, Fraction) else a


def _nice(q: Fraction):
    """A rational as a Python number the interpretations read exactly (int or a float
    equal to it), else None."""
    if q.denominator == 1:
        return int(q)
    f = float(q)
    return f if Fraction(f) == q else None


def audit_identity(g, s: Shape, policy: Policy, no_prover: str | None,
                   no_floats: str | None) -> dict:
    solve, solved, why = (UNKNOWN, None, no_prover) if no_prover else _z3_solve(
        g, s, policy)
    candidates = _candidate_elements(s)
    if solved is not None and solved not in candidates:
        candidates.insert(0, solved)
    failures: dict[str, Any] = {}
    best = None
    for e in candidates:
        bad = next((a for a in _check_points(s) if _mismatch(g, e, a)), None)
        if bad is not None:
            failures[show(e)] = bad
            continue
        prop = identity_prop(s, e)
        law = make_law(prop, g, no_prover=no_prover)
        res = judge(law, policy)
        if res["verdict"] == PROVED:
            best = (prop, law, res)
            break
        if res["verdict"] == TESTED and best is None:
            best = (prop, law, res)
    if best is not None:
        prop, law, res = best
        found = entry(prop, law, res, g, policy, no_floats)
        found["reals"]["element"] = oracle.plain(prop.element)
        return found
    prop = Prop("identity", Property.ASSOCIATIVITY, "f(e, a) = a = f(a, e) for some e",
                T.IDENTITY_LICENSES, ("a",), (s,), None, None)
    tried = ", ".join(f"{k} (fails at a = {show(v)})" for k, v in failures.items())
    infinite_excluded = all(show(e) in failures for e in candidates
                            if any(c in (NEG_INF, POS_INF) for c in flatten([e])))
    if solve == "unsat" and s.kind == "scalar" and infinite_excluded:
        verdict = REFUTED
        reason = (f"no identity: z3 shows no real e satisfies f(e, a) = a = f(a, e) at "
                  f"a ∈ {{{', '.join(show(a) for a in _samples(s))}}}, and e = −∞, +∞ "
                  f"fail: {tried}")
    else:
        verdict = UNKNOWN
        if solve == "unsat":
            reason = ("no identity with finite components (z3: unsat at the sample "
                      "points), and none among the candidates with infinite components; "
                      "elements mixing ±∞ with other values were not excluded")
        else:
            reason = (f"no candidate was proved or tested; tried {tried or 'none'}"
                      + (f"; {why}" if why else ""))
    return {"statement": prop.statement, "family": prop.family.value,
            "reals": {"verdict": verdict, "counterexample": None, "element": None,
                      "method": "z3 solve for e at sample points + mpmath replay of the "
                                "candidates 0, 1, −∞, +∞",
                      "assumptions": [], "reason": reason, "cases": None},
            "float32": skipped("no identity element to check"),
            "float64": skipped("no identity element to check"),
            "licenses": None}

