"""The shape of one teaching entry (``python -m verify explain``), shared by
``laws.teaching`` and ``laws.teaching_systems``. Declarations only."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Teaching:
    """How to recognize and derive one family's law."""

    family: str
    question: str                 # the question that recognizes the property
    state: str                    # the state (or structure) that makes it work
    derivation: tuple[str, ...]   # the argument, a few lines
    systems: str = ""             # where it is used
    pitfall: str = ""             # the near miss, in words
