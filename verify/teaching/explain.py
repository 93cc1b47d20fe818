"""``python -m verify explain ID [--json]``: the teaching view of one law.

What it shows, in order: the property and the question that recognizes it; the state
that makes the fast computation work and the derivation in a few lines (from
``laws/teaching.py``, or a text built from the law's own fields); the verdict and how
it was obtained (``check_law``); the near-miss anti-laws with their counterexamples
evaluated step by step (every call of the combine with its value); the float story
(exact or not per format, with the measured accuracy); where kernels use it (the
combine's definition and each call site in ``impls/``); and what it licenses.
"""
from __future__ import annotations

import difflib
import types
from fractions import Fraction
from typing import Any, Callable

import mpmath

from laws import REGISTRY, Law
from laws.core import FAILS, FREE_MONOID, PROBABILISTIC
from laws.teaching import for_law
from verify.decide import oracle
from verify.engine.interp import Interpretation, _is_library, unwrap
from verify.engine.mpwords import make_mpmath
from verify.engine.shapes import flatten, shape_like
from verify.teaching import sites
from verify.errors import BadInput

class ExplainError(BadInput):
    """Bad input: one line on stderr, exit status 2."""


# --------------------------------------------------------------------------- lookup
def find(law_id: str) -> Law:
    if law_id in REGISTRY:
        return REGISTRY[law_id]
    ids = REGISTRY.ids()
    close = difflib.get_close_matches(law_id, ids, n=4, cutoff=0.5)
    family = [i for i in ids if i.split(".")[0] == law_id]
    hint = close or family[:6]
    raise ExplainError(f"unknown law {law_id!r}" + (f" (did you mean: {', '.join(hint)}?)"
                                                    if hint else " (see python -m verify list)"))


def anti_laws(law: Law) -> list[Law]:
    """Near misses that teach this law: anti-laws whose ``teaches`` is this law or a law
    of the same family, or that belong to the same family."""
    out = []
    for other in REGISTRY:
        if other.expect != FAILS or other.id == law.id:
            continue
        taught = other.teaches or ""
        if taught == law.id or taught.split(".")[0] == law.family or other.family == law.family:
            out.append(other)
    return out


# --------------------------------------------------------------------------- tracing
class _TracingMP(Interpretation):
    """The mpmath interpretation, recording every call of the traced functions."""

    def __init__(self, targets: dict[int, str]) -> None:
        base = make_mpmath()
        super().__init__("mpmath-trace", base.tl, base.math, base.builtins, np=base.np,
                         torch=base.torch)
        self.targets = targets
        self.calls: list[tuple[str, tuple, Any]] = []
        self._wrapped: dict[int, Callable] = {}
        self._keep: list[Any] = []

    def rebind(self, fn):
        inner = unwrap(fn)
        out = super().rebind(fn)
        key = id(inner)
        if key in self.targets and isinstance(out, types.FunctionType):
            if key not in self._wrapped:
                name = self.targets[key]

                def traced(*args, _f=out, _name=name, **kwargs):
                    value = _f(*args, **kwargs)
                    shown = args + tuple(f"{k}={v}" for k, v in kwargs.items())
                    self.calls.append((_name, shown, value))
                    return value
                self._wrapped[key] = traced
                self._keep.append(inner)
            return self._wrapped[key]
        return out


def _display_name(fn: Callable) -> str:
    return unwrap(fn).__name__.lstrip("_") or "f"


def trace_targets(law: Law) -> dict[int, str]:
    """The functions whose calls are shown: the law's combine, else the project
    functions its sides call directly."""
    if law.combine is not None:
        return {id(unwrap(law.combine)): _display_name(law.combine)}
    out: dict[int, str] = {}
    for side in (law.lhs, law.rhs):
        fn = unwrap(side)
        if not isinstance(fn, types.FunctionType):
            continue
        refs = [fn.__globals__.get(n) for n in fn.__code__.co_names]
        if fn.__closure__:
            for cell in fn.__closure__:
                try:
                    refs.append(cell.cell_contents)
                except ValueError:
                    pass
        for ref in refs:
            r = unwrap(ref) if callable(ref) else None
            if (isinstance(r, types.FunctionType) and not _is_library(r)
                    and r.__name__ != "<lambda>"):
                out[id(r)] = _display_name(r)
    return out


def _from_plain(x: Any) -> Any:
    if isinstance(x, list):
        return [_from_plain(v) for v in x]
    if isinstance(x, str):
        if x in ("inf", "-inf"):
            return float(x)
        if x == "nan":
            return float("nan")
        if "/" in x:
            return Fraction(x)
        return mpmath.mpf(x)
    return x


def steps(law: Law, counterexample: dict) -> dict | None:
    """Both sides at the counterexample, every traced call with its value."""
    if law.method in (FREE_MONOID, PROBABILISTIC) or not counterexample:
        return None
    instance = counterexample.get("instance") or {}
    try:
        vars_ = law.vars_for(instance)
        bindings = counterexample["bindings"]
        values = [shape_like(v, flatten(_from_plain(bindings[v.name]))) for v in vars_]
    except (KeyError, TypeError, ValueError):
        return None
    targets = trace_targets(law)
    out = {"calls": {}, "lhs": None, "rhs": None}
    try:
        with mpmath.workprec(oracle.PREC + 64):
            vals = oracle.law_values_to_mp(vars_, values)
            for side, fn in (("lhs", law.lhs), ("rhs", law.rhs)):
                interp = _TracingMP(targets)
                value = interp.rebind(fn)(*vals, **instance)
                out[side] = show(value)
                out["calls"][side] = [{"call": f"{name}({', '.join(show(a) for a in args)})",
                                       "value": show(v)} for name, args, v in interp.calls]
    except Exception as exc:  # a law that cannot be traced still has its verdict
        out["note"] = f"could not evaluate step by step: {type(exc).__name__}: {exc}"
    return out


def show(x: Any) -> str:
    if isinstance(x, (tuple, list)):
        inner = ", ".join(show(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if hasattr(x, "tolist") and not isinstance(x, (mpmath.mpf,)):
        return show(x.tolist())
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    if isinstance(x, (int,)):
        return str(x)
    if isinstance(x, float):
        if x != x:
            return "nan"
        if x in (float("inf"), float("-inf")):
            return "+∞" if x > 0 else "−∞"
        return str(int(x)) if x == int(x) and abs(x) < 2 ** 53 else repr(x)
    if isinstance(x, mpmath.mpf):
        if mpmath.isnan(x):
            return "nan"
        if mpmath.isinf(x):
            return "+∞" if x > 0 else "−∞"
        if x == int(x) and abs(x) < 2 ** 64:
            return str(int(x))
        return mpmath.nstr(x, 20)
    return str(x)


# --------------------------------------------------------------------------- sources
def combine_source(law: Law) -> dict | None:
    """Where the combine is defined, and the shared combines it calls
    (:func:`verify.teaching.sites.definitions`); None without a combine."""
    defs = sites.definitions(law)
    if not defs:
        return None
    first, shared = defs[0], defs[1:]
    return {"name": first.name, "file": first.file, "line": first.line,
            "calls": [{"name": s.name, "file": s.file, "line": s.line} for s in shared]}


def call_sites(law: Law) -> list[dict]:
    """Each use of the combine (or a shared combine it calls) in ``impls/``
    (:func:`verify.teaching.sites.kernel_sites`, the finder ``verify law`` uses too)."""
    return [s.to_json() for s in sites.kernel_sites(law)]


# --------------------------------------------------------------------------- report
def explain(law_id: str, check: bool = True) -> dict:
    """The teaching view as one JSON-friendly document. ``check=False`` skips the
    verdicts (the text alone)."""
    law = find(law_id)
    teach = for_law(law)
    doc: dict[str, Any] = {
        "id": law.id, "family": law.family, "property": law.property.value,
        "secondary": law.secondary.value if law.secondary else None,
        "expect": law.expect, "exactness": law.exactness, "bound": law.bounded_by,
        "statement": law.statement, "doc": law.doc,
        "question": teach.question, "state": teach.state,
        "derivation": list(teach.derivation), "pitfall": teach.pitfall or None,
        "teaching": "family" if law.family in _families() else "generic",
        "licenses": law.licenses, "systems": teach.systems or None,
        "kernels": list(law.kernels), "references": list(law.references),
        "teaches": law.teaches,
    }
    doc["combine"] = combine_source(law)
    doc["call_sites"] = call_sites(law)
    if not check:
        doc["verdict"] = None
        doc["anti_laws"] = [{"id": a.id, "statement": a.statement, "licenses": a.licenses}
                            for a in anti_laws(law)]
        return doc
    from verify.decide.check import check_law
    result = check_law(law)
    doc["verdict"] = {k: result.get(k) for k in ("verdict", "ok", "method", "bound",
                                                 "assumptions", "reason", "cases",
                                                 "counterexample", "seconds",
                                                 "statistics")}
    if result.get("counterexample"):
        doc["verdict"]["steps"] = steps(law, result["counterexample"])
    doc["floats"] = _float_story(result.get("floats"))
    antis = []
    for anti in anti_laws(law):
        r = check_law(anti, floats=False)
        entry = {"id": anti.id, "statement": anti.statement, "licenses": anti.licenses,
                 "verdict": r["verdict"], "ok": r["ok"], "method": r["method"],
                 "counterexample": r.get("counterexample"), "reason": r.get("reason")}
        if r.get("counterexample"):
            entry["steps"] = steps(anti, r["counterexample"])
        antis.append(entry)
    doc["anti_laws"] = antis
    return doc


def _families() -> set[str]:
    from laws.teaching import TEACHING
    return set(TEACHING)


def _float_story(floats: dict | None) -> dict | None:
    if not floats:
        return None
    out = {}
    for fmt, fv in floats.items():
        ce = fv.get("counterexample")
        out[fmt] = {"exact": fv.get("exact"), "cases": fv.get("cases"),
                    "counterexample": ce,
                    "max_relative_error_in_u": fv.get("max_relative_error_in_u"),
                    "note": fv.get("note")}
    return out


# --------------------------------------------------------------------------- CLI



