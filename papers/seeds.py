"""Where a claim of the seed documents comes from: the section, and the seed file and
lines (the seeds are kept outside the project, in shared/seeds/)."""
from __future__ import annotations

FILES = {
    "ch3": "000_555b2d45a013c491.txt",
    "preface": "001_55402a0c7a1c0967.txt",
    "ch36": "002_8368b70f5c1d8358.txt",
    "ch8": "003_895920c6fc3f8f33.txt",
    "moa": "004_e642d0fa88f84102.txt",
}

BOOK = "Taras Tsugrii"
BOOK_TITLE = "The Algebra of Speed: Mathematical Foundations of Computational Performance"


def at(doc: str, lines: str, section: str) -> str:
    """E.g. at("ch8", "84–93", "§8.3.1") → "§8.3.1 (seeds/003_….txt:84–93)"."""
    return f"{section} (seeds/{FILES[doc]}:{lines})"
