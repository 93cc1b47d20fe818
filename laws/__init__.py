"""The law catalog. Every module under a property package (``laws/<property>/``) that
defines ``LAWS`` (laws and monoid law sets) is collected into ``REGISTRY``, which checks
itself here: a malformed law stops the import."""
from __future__ import annotations

import importlib
import pkgutil

from .core import (BOUNDED, EXACT, FAILS, FREE_MONOID, HOLDS, PROBABILISTIC, SEARCH, Z3, Law,
                   Property, Randomized, Registry, Var, fold)
from .monoid import Induction, Monoid

PROPERTY_PACKAGES = ("associativity", "separability", "locality", "sparsity",
                     "redundancy", "symmetry")

REGISTRY = Registry()


def _collect() -> None:
    for package in PROPERTY_PACKAGES:
        try:
            pkg = importlib.import_module(f"{__name__}.{package}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{package}":
                continue
            raise
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            module = importlib.import_module(f"{pkg.__name__}.{info.name}")
            if hasattr(module, "LAWS"):
                REGISTRY.add(*module.LAWS)
    REGISTRY.check()


_collect()

__all__ = ["REGISTRY", "Law", "Monoid", "Induction", "Property", "Var", "fold", "HOLDS", "FAILS",
           "EXACT", "BOUNDED", "Z3", "FREE_MONOID", "SEARCH", "PROBABILISTIC", "Randomized"]
