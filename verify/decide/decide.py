"""From a law to its verdict: the one decision procedure of the catalog, the auditor,
the exercises and the public API.

Verdicts, strongest first: ``proved`` (unsat at the only instance, unbounded) >
``proved-bounded`` (every instance unsat; the bound is stated) > ``tested`` (the
searcher compared N cases against the mpmath oracle) > ``unknown`` (timeout or an
unsupported construct; says which); ``refuted`` carries a counterexample confirmed in
high precision; ``error`` means the law itself is malformed, or a proof that an
independent check contradicts.

How, by the law's method: ``free-monoid`` evaluates both algorithm shapes on atoms under
concatenation; ``search`` runs the searcher only (the law says why); ``z3`` proves each
instance (the whole claim with a short timeout, then each component with a fresh
solver), falls back to an exact rational-function identity, path by path, when z3
times out on a rational claim, and to the searcher when neither decides; a law with
induction steps is proved for every n when every step is. How hard to try (timeouts,
wall-clock limits, cases, floats, what an exception means) comes from the ``Policy``.

Does not cover: float-format verdicts beyond calling ``floats.float_verdicts`` (the
auditor runs its own float checks), or several laws at once (``check.check_many``).
"""
from __future__ import annotations

import contextlib
import io
import time
import traceback
from typing import Any, Iterable

from laws.core import EXACT, FREE_MONOID, HOLDS, PROBABILISTIC, SEARCH, Z3, Law
from verify.decide import nudge, oracle, plain, pyrun, rational, witness
from verify.decide.floats import float_verdicts
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.decide.policy import CATALOG, Policy
from verify.decide.prover import Proof, conflict_reason, prove
from verify.decide.search import Search, search
from verify.engine import freshstate
from verify.results import LawResult, Verdict, agrees

PROVED, PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED, ERROR = (
    Verdict.PROVED, Verdict.PROVED_BOUNDED, Verdict.TESTED, Verdict.UNKNOWN,
    Verdict.REFUTED, Verdict.ERROR)
SEARCHER = "hypothesis + mpmath oracle"
WITNESS_CASES = 30      # searcher cases that cross-check a rational-identity proof


def decide(law: Law, policy: Policy = CATALOG) -> LawResult:
    """The verdict on one law; ``to_json()`` is the ``verify law ID --json`` document
    and ``values`` the raw counterexample (law-shaped), when there is one. The methods
    below answer with ``Verdict`` members; the document gets the verdict's string."""
    t0 = time.perf_counter()
    out = _blank(law)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            out.update(_by_method(law, policy))
    except Exception as exc:  # an exception from the law's own code
        if policy.malformed_is_error:
            out.update(verdict=ERROR, reason=f"{type(exc).__name__}: {exc}",
                       traceback=traceback.format_exc(limit=6))
        else:
            out.update(verdict=UNKNOWN, method=out["method"] or "none",
                       reason=f"the function could not be run ({type(exc).__name__}: "
                              f"{one_line(exc)})")
    values = out.pop("_values", None)
    if out["verdict"] == REFUTED and values is not None and law.method in (Z3, SEARCH):
        _replay(law, out, values)
        if out["verdict"] != REFUTED:
            values = None
    verdict: Verdict = out["verdict"]
    if verdict == PROVED:
        out["bound"] = None  # an unbounded proof (the method names any bounded part)
    out["verdict"] = verdict.value
    out["ok"] = agrees(law.expect, verdict)
    if (policy.floats and law.float_check and law.expect == HOLDS
            and law.exactness == EXACT and law.method != FREE_MONOID and verdict.holds):
        out["floats"] = float_verdicts(law)
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return LawResult(out, values=values)


def _replay(law: Law, out: dict, values) -> None:
    """Every refutation replays with plain Python (``verify.decide.pyrun``) before it
    is shown; one Python does not confirm becomes ``unknown``, with the reason."""
    inst = (out.get("counterexample") or {}).get("instance") or {}

    def not_run(exc: Exception) -> tuple[bool, str]:
        return False, f"plain Python could not run it ({type(exc).__name__}: {exc})"
    try:
        refused = plain.refusal(law) or ""
    except Exception as exc:  # its code cannot be read: nothing is replayed
        ok, why = not_run(exc)
    else:
        def python_confirms(at) -> tuple[bool, str]:
            try:
                freshstate.reset()
                return pyrun.confirms(law, at, inst, exact_run=not refused,
                                      raw="type test" in refused)
            except Exception as exc:  # the function cannot run by plain Python there
                return not_run(exc)
        ok, why = python_confirms(values)
        if not ok and not refused:  # a point nearby both readings confirm
            moved = nudge.nearby(law, values, inst, also=lambda at: python_confirms(at)[0])
            if moved is not None:
                values[:] = moved
                out["counterexample"] = oracle.counterexample(law, moved, inst)
                ok = True
    if not ok:
        out.update(verdict=UNKNOWN, counterexample=None, reason="; ".join(
            r for r in (out.get("reason"), "the counterexample "
                        f"{out['counterexample']['bindings']} does not replay: {why}") if r))


def _blank(law: Law) -> dict[str, Any]:
    return {
        "id": law.id, "property": law.property.value,
        "secondary": law.secondary.value if law.secondary else None,
        "statement": law.statement, "licenses": law.licenses, "expect": law.expect,
        "exactness": law.exactness, "bound": law.bounded_by, "method": None,
        "verdict": None, "ok": False, "counterexample": None, "assumptions": [],
        "reason": None, "cases": None, "floats": None, "seconds": None,
    }


def _by_method(law: Law, policy: Policy) -> dict:
    refused = plain.refusal(law) if law.method in (Z3, SEARCH) else None
    if refused:
        return {"method": "plain Python only", **plain.decide_plain(law, refused)}
    if law.method == FREE_MONOID:
        return {"method": "free monoid (tuples under concatenation)", **_free_monoid(law)}
    if law.method == Z3:
        return _by_z3(law, policy)
    if law.method == SEARCH:
        return {"method": SEARCHER, "reason": law.reason, **_by_search(law, policy)}
    if law.method == PROBABILISTIC:
        from verify.decide.probabilistic import decide_randomized
        return decide_randomized(law, policy)
    raise ValueError(f"unknown method {law.method!r}")


# --------------------------------------------------------------------------- free monoid
def _free_monoid(law: Law) -> dict:
    """Evaluate both algorithm shapes with atoms under concatenation: equal results
    there mean equal results for every associative operation at that size."""
    for inst in law.instances:
        n = inst.get("n")
        atoms = [(f"x{i + 1}",) for i in range(n)]
        lhs = law.lhs(atoms, op=_concat, identity=(), **inst)
        rhs = law.rhs(atoms, op=_concat, identity=(), **inst)
        if lhs != rhs:
            return {"verdict": REFUTED, "counterexample": {
                "bindings": {"n": n, **{k: v for k, v in inst.items() if k != "n"}},
                "lhs": _words(lhs), "rhs": _words(rhs), "gap": None}}
    return {"verdict": PROVED_BOUNDED, "counterexample": None}


def _concat(a: tuple, b: tuple) -> tuple:
    return a + b


def _words(x: Any) -> Any:
    if isinstance(x, tuple) and all(isinstance(w, str) for w in x):
        return "·".join(x) if x else "ε"
    if isinstance(x, (list, tuple)):
        return [_words(v) for v in x]
    return x


# --------------------------------------------------------------------------- z3
def _by_z3(law: Law, policy: Policy) -> dict:
    """Each instance proved (or refuted) by z3, else searched; see the module doc."""
    assumptions: list[str] = []
    encodings: set[str] = set()
    reasons: list[str] = []
    tested = 0
    fallback = undecided = False
    for inst in law.instances:
        proof, why = _prove(law, inst, policy)
        if proof is not None:
            encodings.update(proof.encodings)
        if proof is not None and proof.status != UNKNOWN:
            _extend(assumptions, proof.assumptions)
        if proof is not None and proof.status in (REFUTED, ERROR):
            return _disproof(law, inst, proof, encodings, assumptions)
        if proof is None or proof.status == UNKNOWN:
            fallback = True
            reasons.append(f"{_inst(inst)}{why}")
            found = _search(law, inst, policy)
            if found.status == UNKNOWN and not found.cases and found.unmodelled:
                # no reading runs a word of it: plain Python may still show a difference
                seen = plain.decide_plain(law, f"it uses {found.unmodelled}, "
                                               "which no reading models")
                if seen["verdict"] == REFUTED:
                    return {"method": "plain Python only", "assumptions": assumptions,
                            **seen}
            if found.status == REFUTED:
                return {"method": _z3_method(encodings) + "; " + SEARCHER,
                        "verdict": REFUTED, "assumptions": assumptions,
                        "reason": "the prover did not decide (" + "; ".join(reasons)
                                  + "); the searcher's counterexample below replays",
                        "_values": found.values,
                        "counterexample": oracle.counterexample(law, found.values, inst)}
            if found.reason:
                reasons.append(f"{_inst(inst)}{found.reason}")
            tested += found.cases
            undecided = undecided or found.status == UNKNOWN or _triton_conflict(proof)
    method = _z3_method(encodings)
    if fallback:
        verdict = TESTED if tested and not undecided else UNKNOWN
        return {"method": method + "; " + SEARCHER, "verdict": verdict,
                "cases": tested or None, "assumptions": assumptions,
                "reason": "; ".join(reasons)}
    if law.induction:
        step = _induction(law, policy)
        if step["proved"]:
            return {"method": f"{method}; induction on n ({step['steps']}) against "
                              f"{law.induction_note}; the direct specification also "
                              f"proved for {law.bounded_by}",
                    "verdict": PROVED,
                    "assumptions": assumptions + [a for a in step["assumptions"]
                                                  if a not in assumptions]}
        reasons.append(step["reason"])
    bounded = len(law.instances) > 1 or law.bounded_by is not None
    return {"method": method, "verdict": PROVED_BOUNDED if bounded else PROVED,
            "assumptions": assumptions, "reason": "; ".join(reasons) or None}


def _triton_conflict(proof: Proof | None) -> bool:
    """Whether Triton's interpreter contradicted the readings' proof: the searcher runs
    the same readings, so its agreement tests nothing about the code Triton runs."""
    seen = getattr(proof, "witness", None)
    conflict = seen.get("conflict") if isinstance(seen, dict) else None
    return bool(conflict) and conflict.get("runner") == "Triton's interpreter"


def _prove(law: Law, inst, policy: Policy) -> tuple[Proof | None, str]:
    """z3 on one instance within the policy's wall-clock limit, then the exact
    rational-function identity when z3 did not decide: (proof or None, why not)."""
    try:
        with time_limit(policy.prove_seconds):
            proof = prove(law, inst, policy.timeout_ms, smt_dir=policy.smt_dir)
    except TimeLimit as exc:
        proof, why = None, f"the prover {exc}"
    except Exception as exc:  # a construct the z3 interpretation cannot run
        if policy.malformed_is_error:
            raise
        proof, why = None, (f"the prover could not follow the function "
                            f"({type(exc).__name__}: {one_line(exc)})")
    else:
        why = proof.reason or proof.status.value
    if proof is not None and proof.status != UNKNOWN:
        return proof, why
    exact = _rational(law, inst, policy)
    if exact is not None:
        return exact, exact.reason if exact.status == UNKNOWN else ""
    return proof, why


def _rational(law: Law, inst, policy: Policy) -> Proof | None:
    """A rational-function identity, run through the same witness check as every z3
    proof (the original function on exact points of the domain, branch boundaries and
    the points each assumption excludes) and cross-checked by the searcher; a confirmed
    counterexample to it is an error, shown with the proof."""
    try:
        with time_limit(policy.prove_seconds):
            found = rational.identity(law, inst)
            if found is None:
                return None
            seen = witness.check(law, inst, found.ctx, list(found.vars), found.facts,
                                 found.conditions, found.terms, regions=found.regions)
    except (Exception, TimeLimit):  # the exact path is an extra; failing it decides nothing
        return None
    encoding = rational.ENCODING if len(found.regions) < 2 else \
        f"{rational.ENCODING} on each of {len(found.regions)} paths"
    proof = dict(assumptions=found.assumptions, seconds=found.seconds,
                 encodings=[encoding], witness=seen)
    if seen.get("conflict") is not None and seen["disagreement"] is None:
        return Proof(UNKNOWN, conflict_reason(law, seen["conflict"]), **proof)
    if seen["disagreement"] is not None:
        d = seen["disagreement"]
        return Proof(ERROR, f"the rational-function identity {law.id} is contradicted at "
                            f"{d['bindings']}: lhs = {d['lhs']}, rhs = {d['rhs']}",
                     values=d["values"], **proof)
    check = _search(law, inst, policy.with_(cases=min(policy.cases, WITNESS_CASES)))
    if check.status == REFUTED:
        return Proof(ERROR, "the rational-function identity is contradicted by a replayed "
                            "counterexample", values=check.values, **proof)
    return Proof(PROVED, **proof)


def _disproof(law: Law, inst, proof: Proof, encodings, assumptions) -> dict:
    out = {"method": _z3_method(encodings), "assumptions": assumptions,
           "verdict": REFUTED if proof.status == REFUTED else ERROR, "_values": proof.values}
    if proof.status == ERROR:
        out["reason"] = proof.reason
        witness = getattr(proof, "witness", None)
        if witness is not None:
            out["witness"] = oracle.plain(witness) if not isinstance(witness, dict) \
                else witness
    if proof.values is not None:
        out["counterexample"] = oracle.counterexample(law, proof.values, inst)
    return out


def _induction(law: Law, policy: Policy) -> dict:
    """Prove every step of the law's induction; an unproved step leaves it bounded."""
    assumptions: list[str] = []
    for sub in law.induction:
        proof, _ = _prove(sub, {}, policy)
        status = proof.status if proof is not None else UNKNOWN
        if status != PROVED:
            why = (proof.reason if proof is not None else "") or (
                "a counterexample" if status == REFUTED else "")
            return {"proved": False, "reason": f"no unbounded proof: {sub.id} is "
                                               f"{status.value}{': ' + why if why else ''}"}
        _extend(assumptions, proof.assumptions)
    steps = ", ".join(sub.id.split(".", 1)[1].replace("_", " ") for sub in law.induction)
    return {"proved": True, "steps": steps, "assumptions": assumptions}


def _z3_method(encodings: Iterable[str]) -> str:
    enc = sorted(encodings)
    return "z3 over ℝ" + (f" ({', '.join(enc)})" if enc else "")


def _inst(inst) -> str:
    return f"[{', '.join(f'{k}={v}' for k, v in inst.items())}] " if inst else ""


def _extend(into: list[str], more: Iterable[str]) -> None:
    into.extend(a for a in more if a not in into)


# --------------------------------------------------------------------------- search
def _by_search(law: Law, policy: Policy) -> dict:
    total = 0
    reasons = []
    undecided = False
    for inst in law.instances:
        found = _search(law, inst, policy)
        if found.status == REFUTED:
            return {"verdict": REFUTED, "_values": found.values,
                    "counterexample": oracle.counterexample(law, found.values, inst)}
        if found.reason:
            reasons.append(f"{_inst(inst)}{found.reason}")
        total += found.cases
        undecided = undecided or found.status == UNKNOWN
    out: dict[str, Any] = {"verdict": TESTED if total and not undecided else UNKNOWN,
                           "cases": total or None}
    if reasons and law.reason:
        out["reason"] = "; ".join([law.reason] + reasons)
    return out


def _search(law: Law, inst, policy: Policy) -> Search:
    """The searcher within the policy's wall-clock limit; a refutation is replayed at
    two precisions before it is believed."""
    try:
        with time_limit(policy.search_seconds):
            found = search(law, inst, policy.cases)
        if found.status == REFUTED:
            with time_limit(policy.search_seconds):
                why = oracle.unconfirmed(law, found.values, inst)
            if why:
                return Search(UNKNOWN, found.cases, reason="the searcher's counterexample "
                                                           f"did not replay ({why})")
        return found
    except TimeLimit as exc:
        return Search(UNKNOWN, 0, reason=f"the searcher {exc}")
    except Exception as exc:  # the mpmath interpretation cannot run the law's code
        if policy.malformed_is_error:
            raise
        return Search(UNKNOWN, 0, reason=f"the searcher could not run the function "
                                         f"({type(exc).__name__}: {one_line(exc)})")
