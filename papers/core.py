"""A paper as a value: its claims, each with a check (``papers.claims``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .claims import Claim  # the law claim; kept here for ``from papers.core import Claim``

__all__ = ["Claim", "Paper"]


@dataclass(frozen=True)
class Paper:
    id: str                    # e.g. "milakov2018"; the module name for the book's seeds
    title: str
    authors: str
    year: int
    venue: str                 # journal, conference, arXiv id, or the book and chapter
    claims: tuple = field(default_factory=tuple)  # Claim, Computed, Speedup, NotCheckable
