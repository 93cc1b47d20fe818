"""One property's entry in the audit report: the verdict over ℝ (with the
counterexample evaluated step by step) and the float verdicts."""
from __future__ import annotations

from laws.core import Law
from verify.auditing.floats import FLOAT_FORMATS, float_check
from verify.auditing.properties import Prop
from verify.auditing.trace import trace
from verify.decide import oracle
from verify.decide.decide import decide
from verify.decide.policy import Policy
from verify.engine import freshstate
from verify.results import LawResult

REFUTED = "refuted"
HOLDING = ("proved", "proved-bounded", "tested")


def judge(law: Law, policy: Policy) -> LawResult:
    """The verdict over ℝ on one audited law (the auditor checks floats itself)."""
    return decide(law, policy.with_(floats=False))


def skipped(note: str) -> dict:
    """A float verdict that was not evaluated, and why."""
    return {"verdict": "not-evaluated", "exact": None, "cases": 0, "counterexample": None,
            "note": note}


def entry(prop: Prop, law: Law, res: LawResult, g, policy: Policy,
          no_floats: str | None) -> dict:
    values = res.values
    reals = {"verdict": res["verdict"],
             "counterexample": oracle.plain(values) if values is not None else None,
             "element": None, "method": res["method"], "assumptions": res["assumptions"],
             "reason": res["reason"], "cases": res["cases"], "seconds": res["seconds"]}
    if prop.bounded:
        reals["bound"] = prop.bounded
    if values is not None:
        reals["bindings"] = {v.name: oracle.plain(x) for v, x in zip(law.vars, values, strict=True)}
        freshstate.reset()  # the steps as a fresh function computes them
        reals["steps"] = trace(prop, g, values)
    floats = {}
    for fmt in FLOAT_FORMATS:
        if not policy.floats or not prop.floats:
            floats[fmt] = skipped("float checks not requested")
        else:
            floats[fmt] = float_check(law, fmt, no_floats,
                                      batched=res["verdict"] != REFUTED, policy=policy)
    return {"statement": prop.statement, "family": prop.family.value, "reals": reals,
            **floats, "licenses": prop.licenses if res["verdict"] in HOLDING else None}
