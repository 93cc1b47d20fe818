"""Proofs with z3: assert Not(lhs == rhs) with every precondition, expect unsat.

A sat model is only a candidate: it is replayed in the mpmath oracle and shrunk before
it is reported; if the replay does not confirm it, the answer is ``unknown``. An unsat
answer is a proof only after the witness check (``verify.decide.witness``) has run the
original function on points of the domain and found no disagreement; a disagreement
makes the status ``error``, with the counterexample.

Assumptions: every condition a partial operation needs (a nonzero denominator, a log or
root argument in its domain) that the declared domain and preconditions do not imply
is added to the query *and reported*; the conditions are path-sensitive (see
``verify.engine.definedness``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import z3

from laws.core import BOUNDED, Law
from verify.decide import nudge, oracle, smt, witness
from verify.decide.query import Query
from verify.engine import infinity, mathtext
from verify.engine.definedness import use_conditions
from verify.engine.interp import Unsupported
from verify.engine.shapes import component_names, flatten, shape_like
from verify.engine.z3interp import Z3Context, _as_expr, evaluate
from verify.results import Verdict

DEFAULT_TIMEOUT_MS = 10_000
JOINT_TIMEOUT_MS = 2_000


@dataclass
class Proof:
    status: Verdict                  # PROVED, REFUTED, UNKNOWN or ERROR
    reason: str = ""                 # for unknown / error: why
    assumptions: list[str] = field(default_factory=list)  # stated preconditions used
    values: list[Any] | None = None  # confirmed (shrunk) counterexample, law-shaped
    seconds: float = 0.0
    encodings: list[str] = field(default_factory=list)  # "exp encoding", "paths=4", ...
    # the independent check of a proof: {"points": N, "exact": bool, "disagreement":
    # None or {...}}; None when no proof was checked
    witness: dict | None = None


def _neq(ctx: Z3Context, a: Any, b: Any) -> z3.BoolRef:
    """a ≠ b; through exp when a side holds a log symbol (exp is injective, so the
    query is equivalent over ℝ, and the encoding relates linear forms of bases)."""
    a, b = _as_expr(a, ctx), _as_expr(b, ctx)
    if z3.is_arith(a) and (ctx.mentions_fresh(a) or ctx.mentions_fresh(b)):
        try:
            return ctx.exp(a) != ctx.exp(b)
        except Unsupported:
            pass
    return a != b


def _implied(facts: list, cond: z3.BoolRef) -> bool:
    return Query([*facts, z3.Not(cond)], 1000).check() == z3.unsat


def _short(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _model_value(query: Query, v: z3.ExprRef) -> Any:
    number = query.number(v)
    if number is None:
        raise Unsupported(f"model value {query.value(v)} is not a number")
    return number


def encode_sides(law: Law, instance: Mapping[str, Any], ctx: Z3Context):
    """``(vars, values, lhs, rhs, pre)``: the law's variables, their z3 values, both
    sides' components and the preconditions, evaluated under the z3 interpretation."""
    vars_ = law.vars_for(instance)
    values = [ctx.make(v) for v in vars_]
    lhs_fn, rhs_fn = ctx.interp.rebind(law.lhs), ctx.interp.rebind(law.rhs)
    lhs = flatten(evaluate(ctx, lambda: lhs_fn(*values, **instance)))
    rhs = flatten(evaluate(ctx, lambda: rhs_fn(*values, **instance)))
    pre = []
    if law.pre is not None:
        pre_fn = ctx.interp.rebind(law.pre)
        pre = flatten(evaluate(ctx, lambda: list(pre_fn(*values, **instance))))
    return vars_, values, lhs, rhs, pre


def _encode(law: Law, instance: Mapping[str, Any], ctx: Z3Context):
    """Both sides, the preconditions and the difference terms, as z3 terms."""
    vars_, values, lhs, rhs, pre = encode_sides(law, instance, ctx)
    if len(lhs) != len(rhs):
        raise _Malformed(f"sides have {len(lhs)} and {len(rhs)} components")
    bound = []
    if law.exactness == BOUNDED:
        bnd_fn = ctx.interp.rebind(law.error_bound)
        bound = flatten(evaluate(ctx, lambda: bnd_fn(*values, **instance)))
        if len(bound) == 1:
            bound = bound * len(lhs)
        for t in lhs + rhs + bound:
            ctx.nan.refuse(_as_expr(t, ctx), "a bounded law")
        diffs = [z3.If(_as_expr(a, ctx) >= _as_expr(b, ctx), a - b, b - a) > c
                 for a, b, c in zip(lhs, rhs, bound)]
    else:  # NaN against a number differs, two NaN agree (the oracle's rule)
        diffs = [ctx.nan.differ(_as_expr(a, ctx), _as_expr(b, ctx), _neq(ctx, a, b))
                 for a, b in zip(lhs, rhs)]
    pre = [p if z3.is_expr(p) else z3.BoolVal(bool(p)) for p in pre]
    terms = [_as_expr(t, ctx) for t in lhs + rhs + bound] + pre
    return vars_, terms, pre, diffs


class _Malformed(Exception):
    pass


def _assume(ctx: Z3Context, terms: list, pre: list):
    """The facts a query runs under and the assumptions stated with its answer.

    Domain facts, preconditions and encoding facts first; then each partial operation's
    condition: on the path that evaluates it when it raises in Python, where its value
    is used otherwise. A condition the facts already imply is left out (it only slows
    z3 down); every other one is added and *reported*."""
    infinity.check_terms(ctx, terms + [c for _, c, _ in ctx.raising]
                         + [c for c, _ in ctx.guarded])
    facts = list(ctx.side) + pre + ctx.exp_facts() + ctx.infinity_facts()
    for cond, extra in ctx.guarded:
        if _implied(facts, cond):  # the unconditional form is easier for z3
            facts.extend(extra)
    assumptions = [text for text, c in ctx.assumptions if c is None]
    conditions: list[z3.BoolRef] = []
    needed = [(path, cond, text) for path, cond, text in ctx.raising]
    needed += use_conditions(ctx, terms)
    seen: set[str] = set()
    for guard, cond, text in needed:
        guard = z3.simplify(guard)
        claim = cond if z3.is_true(guard) else z3.Implies(guard, cond)
        key = claim.sexpr()
        if key in seen or _implied(facts, claim):
            continue
        seen.add(key)
        facts.append(claim)
        conditions.append(claim)
        assumptions.append(_short(text) if z3.is_true(guard)
                           else f"{_short(text)} where {_short(mathtext.text(guard), 60)}")
    return facts, assumptions, conditions


def prove(law: Law, instance: Mapping[str, Any] = {},
          timeout_ms: int = DEFAULT_TIMEOUT_MS, smt_dir: str | None = None,
          witness_check: bool = True) -> Proof:
    """Prove ``law`` at one instance. ``proved`` only for an unsat query that the
    independent witness check (``verify.decide.witness``) does not contradict.
    ``smt_dir``: write every query there as SMT-LIB2 (``smt.write_query``)."""
    t0 = time.perf_counter()
    ctx = Z3Context()
    dump = smt.Dump(smt_dir, law, instance)
    try:
        vars_, terms, pre, diffs = _encode(law, instance, ctx)
        facts, assumptions, conditions = _assume(ctx, terms, pre)
    except _Malformed as exc:
        return Proof(Verdict.ERROR, str(exc), seconds=time.perf_counter() - t0)
    except Unsupported as exc:
        return Proof(Verdict.UNKNOWN, str(exc), seconds=time.perf_counter() - t0)
    encodings = ctx.encodings()

    def done(status: Verdict, **kw) -> Proof:
        return Proof(status, assumptions=assumptions, seconds=time.perf_counter() - t0,
                     encodings=encodings, **kw)

    # A proof under contradictory facts is vacuous: the domain, the preconditions and
    # the stated assumptions must have a model before unsat means anything.
    domain = Query(facts, min(timeout_ms, JOINT_TIMEOUT_MS))
    inhabited = domain.check()
    dump.write(domain.solver, "domain", inhabited, assumptions)
    if inhabited == z3.unsat:
        return done(Verdict.UNKNOWN, reason="the domain, preconditions and assumptions have no "
                    "common point, so any claim would follow: "
                    + "; ".join(assumptions or ["(preconditions)"]))
    if inhabited == z3.unknown:
        assumptions.append("the domain's consistency was not established (z3 timed out)")
    outcome = _decide(law, instance, vars_, ctx, facts, diffs, timeout_ms, dump, assumptions)
    if outcome[0] is Verdict.REFUTED:
        return done(Verdict.REFUTED, values=oracle.shrink(law, outcome[1], instance))
    if outcome[0] is Verdict.UNKNOWN:
        return done(Verdict.UNKNOWN, reason=outcome[1])
    if not witness_check:
        return done(Verdict.PROVED)
    seen = witness.check(law, instance, ctx, vars_, facts, conditions, terms)
    if seen["disagreement"] is not None:
        d = seen["disagreement"]
        return done(Verdict.ERROR, values=d["values"], witness=seen,
                    reason=f"z3 proved {law.id} but the function disagrees at "
                           f"{d['bindings']}: lhs = {d['lhs']}, rhs = {d['rhs']}")
    if seen.get("conflict") is not None:
        return done(Verdict.UNKNOWN, witness=seen,
                    reason=conflict_reason(law, seen["conflict"]))
    return done(Verdict.PROVED, witness=seen)


def conflict_reason(law: Law, c: dict) -> str:
    return (f"z3 proved {law.id}, but the function run by {c.get('runner', 'plain Python')} "
            f"gives lhs = "
            f"{c['lhs']}, rhs = {c['rhs']} at {c['bindings']} while the high-precision "
            "replay of the same code finds the sides equal there: the runners disagree "
            "about the function (or Python's rounding hides the value), so no proof is "
            "reported")


def _decide(law, instance, vars_, ctx, facts, diffs, timeout_ms, dump, assumptions):
    """(PROVED, None) | (REFUTED, candidate) | (UNKNOWN, reason)."""
    # First the whole claim with a short timeout, then one query per component:
    # Or(d₁, …, dₖ) is unsat iff each dᵢ is, and z3's nonlinear arithmetic sometimes
    # does far better on the parts than on the disjunction (and sometimes worse).
    unknown_reason = ""
    queries = [z3.Or(*diffs)] if len(diffs) > 1 else []
    queries += diffs
    for qi, diff in enumerate(queries):
        joint = qi == 0 and len(diffs) > 1
        # A fresh solver per query: push/pop would switch z3 to its incremental core,
        # which gives up on nonlinear real arithmetic that the nlsat tactic decides.
        # In a context of its own too (``Query``): the same query, the same answer.
        query = Query([*facts, diff],
                      min(timeout_ms, JOINT_TIMEOUT_MS) if joint else timeout_ms)
        answer = query.check()
        dump.write(query.solver, "joint" if joint else f"component {qi - (len(diffs) > 1)}",
                   answer, assumptions)
        if joint and answer == z3.unsat:
            break
        if answer == z3.sat:
            try:
                candidate = [shape_like(v, [_model_value(query, ctx.variables[n])
                                            for n in component_names(v)])
                             for v in vars_]
            except Unsupported as exc:
                unknown_reason = str(exc)
                continue
            why_not = oracle.unconfirmed(law, candidate, instance)
            if not why_not:
                return Verdict.REFUTED, candidate
            moved = nudge.nearby(law, candidate, instance)  # off a test's boundary
            if moved is not None:
                return Verdict.REFUTED, moved
            at = ", ".join(f"{v.name} = {oracle.plain(x)}" for v, x in zip(vars_, candidate))
            unknown_reason = (f"z3 found a model of the encoding at {at}, where the mpmath "
                              f"replay does not confirm a difference ({why_not})")
            continue
        if answer == z3.unknown and not joint:
            why = query.reason_unknown()
            if "timeout" in why or "canceled" in why:
                why = f"timed out after {timeout_ms} ms"
            unknown_reason = f"z3: {why}"
    if unknown_reason:
        return Verdict.UNKNOWN, unknown_reason
    return Verdict.PROVED, None
