"""A paper as a value: its claims, each bound to the laws that check it."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Claim:
    text: str                  # the claim, in the paper's terms
    laws: tuple[str, ...]      # law ids whose verdicts check it


@dataclass(frozen=True)
class Paper:
    id: str                    # e.g. "milakov2018"
    title: str
    authors: str
    year: int
    venue: str                 # journal, conference or arXiv id
    claims: tuple[Claim, ...] = field(default_factory=tuple)
