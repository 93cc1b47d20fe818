"""Which inputs each output of a vector function depends on: output i is independent of
x[j] when replacing x[j] alone never changes it (a law per pair, proved or tested at the
audited length). Gives the dependency radius (locality) or the inputs a scalar result
reads (sparsity)."""
from __future__ import annotations

import time
from typing import Any

from laws.core import Property
from laws import templates as T
from verify.auditing.properties import from_equation, make_law
from verify.auditing.report import HOLDING, judge, skipped
from verify.auditing.signature import SCALAR, Signature
from verify.decide import oracle
from verify.decide.policy import Policy

PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED = "proved-bounded", "tested", "unknown", "refuted"
LOCALITY_CASES = 60           # searcher cases per (output, input) pair


def audit_locality(g, sig: Signature, policy: Policy, no_prover: str | None) -> dict:
    n = sig.params[0].size
    vec = sig.params[0]
    scalar_out = sig.result.kind == "scalar"
    m = 1 if scalar_out else sig.result.size
    depends: list[list[int]] = [[] for _ in range(m)]
    witnesses: dict[str, Any] = {}
    weakest = PROVED_BOUNDED
    methods, assumptions, reasons = set(), set(), []
    t0 = time.perf_counter()
    for i in range(m):
        for j in range(n):
            prop = from_equation(T.independent(i, j, scalar_out), (vec, SCALAR),
                                 bounded=f"n = {n}")
            law = make_law(prop, g, no_prover=no_prover)
            res = judge(law, policy.with_(cases=LOCALITY_CASES))
            if res["method"]:
                methods.add(res["method"].split(";")[0])
            assumptions.update(res["assumptions"])
            if res["verdict"] == REFUTED:
                depends[i].append(j)
                witnesses[f"{i},{j}"] = oracle.plain(res.values)
            elif res["verdict"] == TESTED:
                weakest = TESTED if weakest != UNKNOWN else weakest
            elif res["verdict"] == UNKNOWN:
                weakest = UNKNOWN
                reasons.append(f"output {i}, input {j}: {res['reason']}")
    if scalar_out:
        element = {"depends_on": depends[0], "witnesses": witnesses}
        radius = None
    else:
        per = [max((abs(i - j) for j in d), default=0) if d else None
               for i, d in enumerate(depends)]
        radius = max((r for r in per if r is not None), default=0)
        element = {"radius": radius, "per_output": per, "depends_on": depends,
                   "witnesses": witnesses}
    statement = ("the inputs each output depends on: output i depends on x[j] when "
                 "changing x[j] alone changes it (independence proved by invariance)")
    holds = weakest in HOLDING
    local = (not scalar_out and radius is not None and radius < n - 1) or (
        scalar_out and len(depends[0]) < n)
    licenses = None
    if holds and local:
        licenses = (T.LOCALITY_LICENSES.replace("r neighbours", f"{radius} neighbours")
                    if not scalar_out else
                    f"sparsity: the result reads only x{depends[0]} of the {n} inputs; "
                    "skip loading the others")
    return {"statement": statement, "family": Property.LOCALITY.value,
            "reals": {"verdict": weakest, "counterexample": None, "element": element,
                      "method": ", ".join(sorted(methods)) or None,
                      "assumptions": sorted(assumptions),
                      "reason": "; ".join(reasons) or None, "cases": None,
                      "bound": f"n = {n}", "seconds": round(time.perf_counter() - t0, 4)},
            "float32": skipped("dependency structure is checked over ℝ only"),
            "float64": skipped("dependency structure is checked over ℝ only"),
            "licenses": licenses}
