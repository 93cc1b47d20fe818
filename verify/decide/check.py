"""The catalog's decisions: one law as its JSON document, many laws in parallel, and
the summary ``verify laws`` prints. Every verdict comes from ``decide.decide``."""
from __future__ import annotations

from typing import Callable

from laws.core import Law
from verify.decide.decide import decide
from verify.decide.policy import CATALOG, Policy
from verify.results import Verdict

VERDICTS = tuple(v.value for v in Verdict)


def check_law(law: Law, *, floats: bool = True, timeout_ms: int | None = None,
              cases: int | None = None, policy: Policy = CATALOG) -> dict:
    """The verdict of one law, as the JSON contract describes it (``decide`` under the
    catalog's policy, with the given changes)."""
    changes: dict = {"floats": floats}
    if timeout_ms is not None:
        changes["timeout_ms"] = timeout_ms
    if cases is not None:
        changes["cases"] = cases
    return decide(law, policy.with_(**changes)).to_json()


def _check_by_id(args: tuple[str, Policy]) -> dict:
    from laws import REGISTRY
    law_id, policy = args
    return decide(REGISTRY[law_id], policy).to_json()


def check_many(ids: list[str], *, jobs: int = 1, policy: Policy = CATALOG,
               progress: Callable[[dict], None] | None = None) -> list[dict]:
    """Check laws under ``policy``, in ``jobs`` processes; results in the order of
    ``ids``."""
    results: dict[str, dict] = {}
    if jobs <= 1:
        from laws import REGISTRY
        for law_id in ids:
            results[law_id] = decide(REGISTRY[law_id], policy).to_json()
            if progress:
                progress(results[law_id])
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = {pool.submit(_check_by_id, (i, policy)): i for i in ids}
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
