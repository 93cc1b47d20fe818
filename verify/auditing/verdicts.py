"""The auditor's verdict over ℝ on one law: z3 first, the searcher when z3 cannot
decide; every counterexample confirmed by the oracle before it is reported."""
from __future__ import annotations

import contextlib
import io
import time
from typing import Any

from laws.core import Law
from verify.decide import oracle
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.decide.policy import AUDIT, Policy
from verify.decide.prover import prove
from verify.decide.search import search

PROVED, PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED = (
    "proved", "proved-bounded", "tested", "unknown", "refuted")


def decide(law: Law, *, bounded: bool, no_prover: str | None, cases: int,
           policy: Policy = AUDIT) -> dict:
    """Verdict over ℝ: z3 first, the searcher when z3 cannot decide; every
    counterexample confirmed by the oracle before it is reported."""
    out: dict[str, Any] = {"verdict": UNKNOWN, "values": None, "method": None,
                           "assumptions": [], "reason": None, "cases": None,
                           "seconds": 0.0}
    t0 = time.perf_counter()
    reasons = []
    if no_prover:
        reasons.append(no_prover)
    else:
        try:
            with time_limit(policy.prove_seconds), contextlib.redirect_stdout(io.StringIO()):
                proof = prove(law, {}, policy.timeout_ms)
        except TimeLimit as exc:
            proof = None
            reasons.append(f"the prover {exc}")
        except Exception as exc:  # a construct the z3 interpretation cannot run
            proof = None
            reasons.append(f"the prover could not follow the function "
                           f"({type(exc).__name__}: {one_line(exc)})")
        if proof is not None:
            out["assumptions"] = list(proof.assumptions)
            method = "z3 over ℝ" + (f" ({', '.join(sorted(proof.encodings))})"
                                     if proof.encodings else "")
            if proof.status == PROVED:
                out.update(verdict=PROVED_BOUNDED if bounded else PROVED, method=method)
                out["seconds"] = round(time.perf_counter() - t0, 4)
                return out
            if proof.status == REFUTED and _confirmed(law, proof.values, policy):
                out.update(verdict=REFUTED, values=proof.values,
                           method=method + "; counterexample replayed in mpmath")
                out["seconds"] = round(time.perf_counter() - t0, 4)
                return out
            reasons.append(f"the prover answered unknown: {proof.reason or proof.status}")
    try:
        with time_limit(policy.search_seconds), contextlib.redirect_stdout(io.StringIO()):
            found = search(law, {}, cases)
    except (Exception, TimeLimit) as exc:  # the mpmath interpretation cannot run it
        why = (f"the searcher {exc}" if isinstance(exc, TimeLimit) else
               f"the searcher could not run the function ({type(exc).__name__}: "
               f"{one_line(exc)})")
        out.update(verdict=UNKNOWN, method="none", reason="; ".join(reasons + [why]))
        out["seconds"] = round(time.perf_counter() - t0, 4)
        return out
    out["method"] = "hypothesis + mpmath oracle"
    out["assumptions"] = []  # the prover's assumptions belong to a proof not obtained
    out["reason"] = "; ".join(reasons) + "; so the searcher was used instead"
    if found.status == REFUTED and _confirmed(law, found.values, policy):
        out.update(verdict=REFUTED, values=found.values, cases=found.cases)
    elif found.status == "tested":
        out.update(verdict=TESTED, cases=found.cases)
    else:
        out.update(verdict=UNKNOWN, cases=found.cases or None,
                   reason=out["reason"] + (f"; {found.reason}" if found.reason else ""))
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def _confirmed(law: Law, values, policy: Policy) -> bool:
    if values is None:
        return False
    try:
        with time_limit(policy.search_seconds):
            return oracle.confirms(law, values)
    except (Exception, TimeLimit):  # a replay that cannot run confirms nothing
        return False


def combine_verdicts(parts: list[dict]) -> dict:
    """Several laws making up one property (one per permutation generator)."""
    refuted = [p for p in parts if p["verdict"] == REFUTED]
    if refuted:
        return refuted[0]
    order = [PROVED, PROVED_BOUNDED, TESTED, UNKNOWN]
    worst = max(parts, key=lambda p: order.index(p["verdict"]))
    out = dict(worst)
    out["assumptions"] = sorted({a for p in parts for a in p["assumptions"]})
    if worst["verdict"] == TESTED:
        out["cases"] = sum(p["cases"] or 0 for p in parts)
    out["seconds"] = round(sum(p["seconds"] for p in parts), 4)
    return out

