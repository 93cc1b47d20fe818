"""Claims from the literature. Every module in this package that defines ``PAPER`` is
collected into ``PAPERS``; a claim is checked by the verdicts of the laws it names."""
from __future__ import annotations

import importlib
import pkgutil

from .core import Claim, Paper

PAPERS: dict[str, Paper] = {}

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    if _info.name == "core":
        continue
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    if hasattr(_module, "PAPER"):
        PAPERS[_module.PAPER.id] = _module.PAPER

__all__ = ["PAPERS", "Paper", "Claim"]
