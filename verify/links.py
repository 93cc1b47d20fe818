"""The links between the law catalog and papers/, checked both ways in one place.

A law names the papers it comes from (``Law.references``, paper ids); a paper's claims
name the laws that check them (``Claim.laws``, law ids). :func:`broken_links` lists
every id on either side that the other side does not define. It checks only that the
ids exist, not that a claim is about the law it names.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from laws import Law


@dataclass(frozen=True)
class BrokenLink:
    """One id that does not resolve: ``law`` and ``paper`` are both sides of the link,
    ``missing`` says which of them does not exist ("paper" or "law")."""

    law: str
    paper: str
    missing: str
    claim: str = ""      # the claim's text, when the link comes from a paper

    def __str__(self) -> str:
        if self.missing == "paper":
            return (f"law {self.law} references paper {self.paper}, "
                    "which papers/ does not define")
        return (f"paper {self.paper} names law {self.law} (claim: {self.claim!r}), "
                "which the law catalog does not define")


def broken_links(laws: Iterable[Law] | None = None,
                 papers: Mapping[str, object] | None = None) -> list[BrokenLink]:
    """Every law reference to an unknown paper and every paper claim naming an unknown
    law, laws first, in catalog order. Defaults: ``laws.REGISTRY`` and
    ``papers.PAPERS``."""
    if laws is None:
        from laws import REGISTRY
        laws = REGISTRY
    if papers is None:
        from papers import PAPERS
        papers = PAPERS
    laws = list(laws)
    law_ids = {law.id for law in laws}
    out = [BrokenLink(law.id, ref, "paper")
           for law in laws for ref in law.references if ref not in papers]
    for paper_id, paper in papers.items():
        for claim in getattr(paper, "claims", ()):
            out.extend(BrokenLink(law_id, paper_id, "law", claim.text)
                       for law_id in claim.laws if law_id not in law_ids)
    return out
