"""Claims from the literature and the book this project grew from, each with a check.

Every module in this package that defines ``PAPER`` is collected into ``PAPERS``. A
claim has a kind (``papers.claims.KINDS``) and a check that computes its verdict
(``papers.claims.VERDICTS``) and evidence; law claims are decided by the law catalog,
through the ``law_verdict`` callable the caller passes.

``check_all(law_verdict)`` gives the JSON document of ``verify papers --json``:
``[{"id", "title", "claims": [{"text", "where", "kind", "verdict", "evidence"}]}]``.
``claims_for_law(law_id)`` lists the claims that rely on a law (for ``explain``).
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Callable, Mapping

from .claims import KINDS, NOT_CHECKABLE, VERDICTS, Claim, Outcome
from .core import Paper

PAPERS: dict[str, Paper] = {}

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    if _info.name == "core":
        continue
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    if hasattr(_module, "PAPER"):
        PAPERS[_module.PAPER.id] = _module.PAPER


def check_claim(claim, law_verdict: Callable[[str], Mapping] | None = None) -> dict:
    """One claim as {"text", "where", "kind", "verdict", "evidence"}. A check that raises
    is reported ``not-checkable`` with the exception, never as a verdict it did not reach."""
    try:
        result = claim.check(law_verdict)
    except Exception as exc:  # the claim's own check failed: say so, do not guess
        result = Outcome(NOT_CHECKABLE, f"the check raised {type(exc).__name__}: {exc}")
    return {"text": claim.text, "where": claim.where, "kind": claim.kind,
            "verdict": result.verdict, "evidence": result.evidence}


def check_all(law_verdict: Callable[[str], Mapping] | None = None) -> list[dict]:
    """Every paper with every claim checked. ``law_verdict(law_id)`` returns the catalog's
    result for a law (at least "verdict" and "ok"); without it, law claims are
    ``not-checkable``."""
    return [{"id": paper.id, "title": paper.title,
             "claims": [check_claim(c, law_verdict) for c in paper.claims]}
            for paper in PAPERS.values()]


def claims_for_law(law_id: str) -> list[dict]:
    """The claims that name ``law_id`` (law claims decided by it, and computed claims
    resting on it), as {"paper", "title", "text", "where", "kind"}; nothing is checked."""
    return [{"paper": paper.id, "title": paper.title, "text": c.text, "where": c.where,
             "kind": c.kind}
            for paper in PAPERS.values() for c in paper.claims
            if law_id in getattr(c, "laws", ()) or law_id in getattr(c, "related", ())]


def reason(claim_result: Mapping) -> str:
    """The one-line reason of a checked claim (the first line of its evidence)."""
    return claim_result["evidence"].strip().splitlines()[0]


__all__ = ["PAPERS", "Paper", "Claim", "KINDS", "VERDICTS", "check_all", "check_claim",
           "claims_for_law", "reason"]
