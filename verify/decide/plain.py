"""Laws about functions no interpretation can follow: decided by plain Python alone.

A function that writes state, compares identities or tests types
(``verify.engine.faithful``) computes one thing in Python and another in every rebound
copy, so neither the prover nor the searcher (both run copies) may speak for it. Its
law is compared by the plain-Python runner (``verify.decide.pyrun``) on the witness's
points (small integers and halves, doubles over every binade) and on seeded random
doubles, always as Python floats (a type test takes another branch on a Fraction):
a certain difference (beyond the float run's rounding bound) is a counterexample;
otherwise the verdict is ``unknown`` with the reason (a finite sample of plain-Python
runs proves nothing and is not reported as ``tested``).
"""
from __future__ import annotations

import random
from typing import Any, Mapping

from laws.core import Law
from verify.decide import oracle, pyrun
from verify.engine import domains, freshstate
from verify.engine.shapes import flatten, shape_like
from verify.results import Verdict

RANDOM_POINTS = 200


def _points(law: Law, instance: Mapping[str, Any]) -> list[list[Any]]:
    from verify.decide.witness import _binade_grid, _grid
    vars_ = law.vars_for(instance)
    out = _grid(vars_) + _binade_grid(vars_)
    rng = random.Random(0)
    for _ in range(RANDOM_POINTS):
        row = []
        for v in vars_:
            comps = []
            for d in v.component_domains():
                dom = domains.get(d)
                x = rng.choice(dom.binades() + dom.grid())
                if not dom.integer and rng.random() < 0.5:
                    x = float(x) * rng.uniform(0.5, 2.0)
                    x = x if dom.contains(x) else dom.grid()[0]
                comps.append(x)
            row.append(shape_like(v, comps))
        out.append(row)
    return out


def decide_plain(law: Law, why: str) -> dict:
    """``{"verdict", "reason", "_values", "counterexample", "cases"}`` for a law whose
    function only plain Python runs faithfully (``why`` says what it does)."""
    compared = 0
    raw = "type test" in why  # type(x) is float: bare floats, no error bound
    unrestored = False
    with freshstate.kept([f for f in (law.lhs, law.rhs, law.pre) if f is not None]):
        for inst in law.instances:
            vars_ = law.vars_for(inst)
            for values in _points(law, inst):
                if not all(oracle.in_domain(v, x) for v, x in zip(vars_, values)):
                    continue
                fresh = freshstate.reset()  # each point on the function as handed over
                if pyrun.pre_holds(law, values, inst, exact_run=False) is not True:
                    continue
                freshstate.reset()
                seen = pyrun.judge(law, values, inst, exact_run=False, raw=raw)
                if seen.status == "undecided":
                    continue
                compared += 1
                if seen.status == "differ" or (raw and seen.status == "gross"):
                    if not fresh:
                        unrestored = True
                        continue
                    return {"verdict": Verdict.REFUTED, "_values": values,
                            "reason": f"{why}: decided by plain Python alone",
                            "counterexample": counterexample(law, values, inst, seen)}
    found = ("plain Python found differences only on state it could not put back between "
             "runs, which are not reproducible" if unrestored else
             f"plain Python found no difference at {compared} points, which proves nothing")
    return {"verdict": Verdict.UNKNOWN, "cases": compared or None,
            "reason": f"{why}, which no interpretation follows faithfully: the prover and "
                      f"the searcher refuse it; {found}"}


def counterexample(law: Law, values, inst, seen) -> dict:
    def side(xs):
        return (oracle.plain(pyrun.plain_value(xs[0])) if len(xs) == 1
                else [oracle.plain(pyrun.plain_value(x)) for x in xs])
    out = {"bindings": {v.name: oracle.plain(x) for v, x in zip(law.vars_for(inst), values)},
           "lhs": side(seen.sides.lhs), "rhs": side(seen.sides.rhs), "gap": None}
    if inst:
        out["instance"] = dict(inst)
    return out


def refusal(law: Law) -> str | None:
    """Why no rebound copy of the law's functions computes what Python computes."""
    from verify.engine.faithful import refusal as why
    for fn in (law.lhs, law.rhs, law.pre):
        if fn is not None:
            found = why(fn)
            if found:
                return found
    return None


__all__ = ["decide_plain", "refusal", "flatten"]
