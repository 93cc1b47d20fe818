"""Proofs with z3: assert Not(lhs == rhs) with every precondition, expect unsat.

A sat model is only a candidate: it is replayed in the mpmath oracle and shrunk before
it is reported; if the replay does not confirm it, the answer is ``unknown``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

import z3

from laws.core import BOUNDED, Law
from verify.decide import oracle
from verify.engine.interp import Unsupported
from verify.engine.shapes import component_names, flatten, shape_like
from verify.engine.z3interp import Z3Context, _as_expr, denominators, evaluate

DEFAULT_TIMEOUT_MS = 10_000
JOINT_TIMEOUT_MS = 2_000


@dataclass
class Proof:
    status: str                      # "proved" | "refuted" | "unknown" | "error"
    reason: str = ""                 # for unknown / error: why
    assumptions: list[str] = field(default_factory=list)  # stated preconditions used
    values: list[Any] | None = None  # confirmed (shrunk) counterexample, law-shaped
    seconds: float = 0.0
    encodings: list[str] = field(default_factory=list)  # "exp encoding", "paths=4", ...


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
    s = z3.Solver()
    s.set("timeout", 1000)
    s.add(*facts)
    s.add(z3.Not(cond))
    return s.check() == z3.unsat


def _short(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _model_value(model: z3.ModelRef, v: z3.ExprRef) -> Any:
    val = model.eval(v, model_completion=True)
    if z3.is_int_value(val):
        return val.as_long()
    if z3.is_rational_value(val):
        return Fraction(val.numerator_as_long(), val.denominator_as_long())
    if z3.is_algebraic_value(val):
        approx = val.approx(40)
        return Fraction(approx.numerator_as_long(), approx.denominator_as_long())
    raise Unsupported(f"model value {val} is not a number")


def prove(law: Law, instance: Mapping[str, Any] = {},
          timeout_ms: int = DEFAULT_TIMEOUT_MS) -> Proof:
    """Prove ``law`` at one instance. ``proved`` only for an unsat query."""
    t0 = time.perf_counter()
    ctx = Z3Context()
    try:
        vars_ = law.vars_for(instance)
        values = [ctx.make(v) for v in vars_]
        lhs_fn, rhs_fn = ctx.interp.rebind(law.lhs), ctx.interp.rebind(law.rhs)
        lhs = flatten(evaluate(ctx, lambda: lhs_fn(*values, **instance)))
        rhs = flatten(evaluate(ctx, lambda: rhs_fn(*values, **instance)))
        pre = []
        if law.pre is not None:
            pre_fn = ctx.interp.rebind(law.pre)
            pre = flatten(evaluate(ctx, lambda: list(pre_fn(*values, **instance))))
        if len(lhs) != len(rhs):
            return Proof("error", f"sides have {len(lhs)} and {len(rhs)} components",
                         seconds=time.perf_counter() - t0)
        if law.exactness == BOUNDED:
            bnd_fn = ctx.interp.rebind(law.error_bound)
            bound = flatten(evaluate(ctx, lambda: bnd_fn(*values, **instance)))
            if len(bound) == 1:
                bound = bound * len(lhs)
            diffs = [z3.If(_as_expr(a, ctx) >= _as_expr(b, ctx), a - b, b - a) > c
                     for a, b, c in zip(lhs, rhs, bound)]
        else:
            diffs = [_neq(ctx, a, b) for a, b in zip(lhs, rhs)]
        pre = [p if z3.is_expr(p) else z3.BoolVal(bool(p)) for p in pre]
        facts = (list(ctx.side) + pre + ctx.exp_facts() + ctx.infinity_facts())
        # Stated preconditions: what the functions need (denominators, log and sqrt
        # arguments) and the domain does not already imply.
        needed = [(lambda d=d: f"{_short(str(d))} ≠ 0", d != 0)
                  for d in denominators(ctx, lhs + rhs + pre)]
        needed += [(lambda t=text, c=c: f"{t}: {_short(str(c))}", c)
                   for text, c in ctx.assumptions if c is not None]
        assumptions = [text for text, c in ctx.assumptions if c is None]
        for describe, cond in needed:
            if not _implied(facts, cond):  # an implied fact only slows z3 down
                facts.append(cond)
                assumptions.append(describe())
    except Unsupported as exc:
        return Proof("unknown", str(exc), seconds=time.perf_counter() - t0)
    encodings = ctx.encodings()
    # A proof under contradictory facts is vacuous: the domain, the preconditions and
    # the stated assumptions must have a model before unsat means anything.
    domain = z3.Solver()
    domain.set("timeout", int(min(timeout_ms, JOINT_TIMEOUT_MS)))
    domain.add(*facts)
    inhabited = domain.check()
    if inhabited == z3.unsat:
        return Proof("unknown", "the domain, preconditions and assumptions have no common "
                     "point, so any claim would follow: " + "; ".join(assumptions or
                                                                      ["(preconditions)"]),
                     assumptions=assumptions, seconds=time.perf_counter() - t0,
                     encodings=encodings)
    if inhabited == z3.unknown:
        assumptions.append("the domain's consistency was not established (z3 timed out)")
    # First the whole claim with a short timeout, then one query per component:
    # Or(d₁, …, dₖ) is unsat iff each dᵢ is, and z3's nonlinear arithmetic sometimes
    # does far better on the parts than on the disjunction (and sometimes worse).
    unknown_reason = ""
    confirmed = None
    queries = [z3.Or(*diffs)] if len(diffs) > 1 else []
    queries += diffs
    for qi, diff in enumerate(queries):
        joint = qi == 0 and len(diffs) > 1
        # A fresh solver per query: push/pop would switch z3 to its incremental core,
        # which gives up on nonlinear real arithmetic that the nlsat tactic decides.
        solver = z3.Solver()
        solver.set("timeout", int(min(timeout_ms, JOINT_TIMEOUT_MS) if joint else timeout_ms))
        solver.add(*facts)
        solver.add(diff)
        answer = solver.check()
        if joint and answer == z3.unsat:
            break
        if answer == z3.sat:
            model = solver.model()
            try:
                candidate = [shape_like(v, [_model_value(model, ctx.variables[n])
                                            for n in component_names(v)])
                             for v in vars_]
            except Unsupported as exc:
                unknown_reason = str(exc)
                continue
            if oracle.confirms(law, candidate, instance):
                confirmed = candidate
                break
            unknown_reason = ("z3 found a model of the encoding that the mpmath replay "
                              "does not confirm")
            continue
        if answer == z3.unknown and not joint:
            why = solver.reason_unknown()
            if "timeout" in why or "canceled" in why:
                why = f"timed out after {timeout_ms} ms"
            unknown_reason = f"z3: {why}"
    if confirmed is None:
        if unknown_reason:
            return Proof("unknown", unknown_reason, assumptions=assumptions,
                         seconds=time.perf_counter() - t0, encodings=encodings)
        return Proof("proved", assumptions=assumptions, seconds=time.perf_counter() - t0,
                     encodings=encodings)
    candidate = confirmed
    shrunk = oracle.shrink(law, candidate, instance)
    return Proof("refuted", values=shrunk, assumptions=assumptions,
                 seconds=time.perf_counter() - t0, encodings=encodings)
