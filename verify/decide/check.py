"""From a law to its verdict.

Verdicts, strongest first: ``proved`` (unsat at the only instance, unbounded) >
``proved-bounded`` (every instance unsat; the bound is stated) > ``tested`` (the
searcher compared N cases against the mpmath oracle) > ``unknown`` (timeout or an
unsupported construct; says which); ``refuted`` carries a counterexample confirmed in
high precision; ``error`` means the law itself is malformed.
"""
from __future__ import annotations

import time
import traceback
from typing import Any, Callable, Iterable

from laws.core import EXACT, FREE_MONOID, HOLDS, Z3, Law
from verify.decide import oracle
from verify.decide.floats import float_verdicts
from verify.decide.prover import DEFAULT_TIMEOUT_MS, prove
from verify.decide.search import DEFAULT_CASES, search

PROVED, PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED, ERROR = (
    "proved", "proved-bounded", "tested", "unknown", "refuted", "error")
VERDICTS = (PROVED, PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED, ERROR)


def agrees(expect: str, verdict: str) -> bool:
    if expect == HOLDS:
        return verdict in (PROVED, PROVED_BOUNDED, TESTED)
    return verdict == REFUTED


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


def check_law(law: Law, *, floats: bool = True, timeout_ms: int = DEFAULT_TIMEOUT_MS,
              cases: int = DEFAULT_CASES) -> dict:
    """The verdict of one law, as the JSON contract describes it."""
    t0 = time.perf_counter()
    out: dict[str, Any] = {
        "id": law.id, "property": law.property.value,
        "secondary": law.secondary.value if law.secondary else None,
        "statement": law.statement, "licenses": law.licenses, "expect": law.expect,
        "exactness": law.exactness, "bound": law.bounded_by, "method": None,
        "verdict": None, "ok": False, "counterexample": None, "assumptions": [],
        "reason": None, "cases": None, "floats": None, "seconds": None,
    }
    try:
        if law.method == FREE_MONOID:
            out["method"] = "free monoid (tuples under concatenation)"
            out.update(_free_monoid(law))
        elif law.method == Z3:
            out.update(_by_z3(law, timeout_ms, cases))
        else:
            out["method"] = "hypothesis + mpmath oracle"
            out["reason"] = law.reason
            out.update(_by_search(law, cases))
    except Exception as exc:  # a malformed law: the error names it
        out["verdict"] = ERROR
        out["reason"] = f"{type(exc).__name__}: {exc}"
        out["traceback"] = traceback.format_exc(limit=6)
    if out["verdict"] == PROVED:
        out["bound"] = None  # an unbounded proof (the method names any bounded part)
    out["ok"] = agrees(law.expect, out["verdict"])
    if (floats and law.float_check and law.expect == HOLDS and law.exactness == EXACT
            and law.method != FREE_MONOID and out["verdict"] in (PROVED, PROVED_BOUNDED, TESTED)):
        out["floats"] = float_verdicts(law)
    out["seconds"] = round(time.perf_counter() - t0, 4)
    return out


def _by_z3(law: Law, timeout_ms: int, cases: int) -> dict:
    assumptions: list[str] = []
    encodings: set[str] = set()
    reasons: list[str] = []
    tested = 0
    fallback = False
    for inst in law.instances:
        proof = prove(law, inst, timeout_ms)
        encodings.update(proof.encodings)
        for a in proof.assumptions:
            if a not in assumptions:
                assumptions.append(a)
        if proof.status == REFUTED:
            return {"method": _z3_method(encodings), "verdict": REFUTED,
                    "assumptions": assumptions,
                    "counterexample": oracle.counterexample(law, proof.values, inst)}
        if proof.status == "error":
            return {"method": _z3_method(encodings), "verdict": ERROR,
                    "reason": proof.reason}
        if proof.status == UNKNOWN:
            fallback = True
            reasons.append(f"{_inst(inst)}{proof.reason}")
            found = search(law, inst, cases)
            if found.status == REFUTED:
                return {"method": _z3_method(encodings) + "; hypothesis + mpmath oracle",
                        "verdict": REFUTED, "assumptions": assumptions,
                        "reason": "; ".join(reasons),
                        "counterexample": oracle.counterexample(law, found.values, inst)}
            tested += found.cases
    method = _z3_method(encodings)
    if law.induction and not fallback:
        step = _induction(law, timeout_ms)
        if step["proved"]:
            return {"method": f"{method}; induction on n ({step['steps']}) against "
                              f"{law.induction_note}; the direct specification also "
                              f"proved for {law.bounded_by}",
                    "verdict": PROVED,
                    "assumptions": assumptions + [a for a in step["assumptions"]
                                                  if a not in assumptions]}
        reasons.append(step["reason"])
    if fallback:
        return {"method": method + "; hypothesis + mpmath oracle", "verdict": TESTED
                if tested else UNKNOWN, "cases": tested or None, "assumptions": assumptions,
                "reason": "; ".join(reasons)}
    bounded = len(law.instances) > 1 or law.bounded_by is not None
    return {"method": method, "verdict": PROVED_BOUNDED if bounded else PROVED,
            "assumptions": assumptions, "reason": "; ".join(reasons) or None}


def _induction(law: Law, timeout_ms: int) -> dict:
    """Prove every step of the law's induction; an unproved step leaves it bounded."""
    assumptions: list[str] = []
    for sub in law.induction:
        proof = prove(sub, {}, timeout_ms)
        if proof.status != PROVED:
            why = proof.reason or ("a counterexample" if proof.status == REFUTED else "")
            return {"proved": False, "reason": f"no unbounded proof: {sub.id} is "
                                               f"{proof.status}{': ' + why if why else ''}"}
        assumptions += [a for a in proof.assumptions if a not in assumptions]
    steps = ", ".join(sub.id.split(".", 1)[1].replace("_", " ") for sub in law.induction)
    return {"proved": True, "steps": steps, "assumptions": assumptions}


def _z3_method(encodings: Iterable[str]) -> str:
    enc = sorted(encodings)
    return "z3 over ℝ" + (f" ({', '.join(enc)})" if enc else "")


def _inst(inst) -> str:
    return f"[{', '.join(f'{k}={v}' for k, v in inst.items())}] " if inst else ""


def _by_search(law: Law, cases: int) -> dict:
    total = 0
    for inst in law.instances:
        found = search(law, inst, cases)
        if found.status == REFUTED:
            return {"verdict": REFUTED,
                    "counterexample": oracle.counterexample(law, found.values, inst)}
        total += found.cases
    return {"verdict": TESTED if total else UNKNOWN, "cases": total or None}


# --------------------------------------------------------------------------- many laws
def _check_by_id(args: tuple[str, bool]) -> dict:
    from laws import REGISTRY
    law_id, floats = args
    return check_law(REGISTRY[law_id], floats=floats)


def check_many(ids: list[str], *, jobs: int = 1, floats: bool = True,
               progress: Callable[[dict], None] | None = None) -> list[dict]:
    """Check laws, in ``jobs`` processes; results in the order of ``ids``."""
    results: dict[str, dict] = {}
    if jobs <= 1:
        from laws import REGISTRY
        for law_id in ids:
            results[law_id] = check_law(REGISTRY[law_id], floats=floats)
            if progress:
                progress(results[law_id])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = {pool.submit(_check_by_id, (i, floats)): i for i in ids}
            for fut in as_completed(futures):
                res = fut.result()
                results[res["id"]] = res
                if progress:
                    progress(res)
    return [results[i] for i in ids]


def summary(results: list[dict]) -> dict:
    counts = {v: 0 for v in VERDICTS}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    bad = [r["id"] for r in results if not r["ok"]]
    return {"total": len(results), "ok": len(results) - len(bad), "disagree": bad,
            "verdicts": counts,
            "seconds": round(sum(r["seconds"] or 0 for r in results), 3)}
