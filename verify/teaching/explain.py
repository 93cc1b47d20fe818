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
import json
import sys
import types
from fractions import Fraction
from typing import Any, Callable

import mpmath

from laws import REGISTRY, Law
from laws.core import FAILS, FREE_MONOID
from laws.teaching import for_law
from verify.decide import oracle
from verify.engine.interp import Interpretation, _is_library, make_mpmath, unwrap
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

                def traced(*args, _f=out, _name=name):
                    value = _f(*args)
                    self.calls.append((_name, args, value))
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
    if law.method == FREE_MONOID or not counterexample:
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
                                                 "counterexample", "seconds")}
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
def cmd_explain(args) -> int:
    """``python -m verify explain ID [--json]``: 0 when the law's verdict agrees with its
    expectation, 1 when not, 2 for an unknown id."""
    try:
        doc = explain(args.law_id)
    except ExplainError as exc:
        print(f"explain: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(doc, ensure_ascii=False, default=str))
    else:
        render(doc)
    verdict = doc.get("verdict") or {}
    return 0 if verdict.get("ok") else 1


def render(doc: dict, console=None) -> None:
    from rich.console import Console
    from rich.markup import escape

    con = console or Console()
    e = escape
    con.print(f"[bold]{e(doc['id'])}[/bold]  ({doc['property']}"
              + (f", {doc['secondary']}" if doc.get("secondary") else "")
              + (", anti-law: must fail" if doc["expect"] == FAILS else "") + ")")
    con.print(f"  {e(doc['statement'])}")
    if doc.get("exactness") == "bounded":
        con.print("  [dim]an approximation law: the sides agree within its error bound[/dim]")
    con.print(f"\n[bold]Question[/bold]  {e(doc['question'])}")
    con.print(f"[bold]State[/bold]     {e(doc['state'])}")
    con.print("[bold]Why it works[/bold]")
    for line in doc["derivation"]:
        con.print(f"  · {e(line)}")
    if doc.get("pitfall"):
        con.print(f"[bold]Near miss[/bold]  {e(doc['pitfall'])}")
    v = doc.get("verdict")
    if v:
        colour = "green" if v["ok"] else "red"
        con.print(f"\n[bold]Verdict[/bold]  [{colour}]{v['verdict']}[/]"
                  + (f" ({e(v['bound'])})" if v.get("bound") else "")
                  + (f", {v['cases']} cases" if v.get("cases") else "")
                  + f" by {e(str(v['method']))}")
        if v.get("assumptions"):
            con.print(f"  assuming: {e('; '.join(v['assumptions']))}")
        if v.get("reason"):
            con.print(f"  [dim]{e(v['reason'])}[/dim]")
        if v.get("counterexample"):
            _render_counterexample(con, v["counterexample"], v.get("steps"))
    for anti in doc.get("anti_laws", []):
        con.print(f"\n[bold]Anti-law[/bold] {e(anti['id'])}: {e(anti['statement'])}")
        if anti.get("verdict"):
            colour = "green" if anti.get("ok") else "red"
            con.print(f"  [{colour}]{anti['verdict']}[/] (must fail) by {e(str(anti['method']))}")
        if anti.get("counterexample"):
            _render_counterexample(con, anti["counterexample"], anti.get("steps"))
        con.print(f"  licenses {e(anti['licenses'])}")
    floats = doc.get("floats")
    if floats:
        con.print("\n[bold]Floats[/bold]")
        for fmt, fv in floats.items():
            if fv["exact"] is None:
                con.print(f"  {fmt}: not decided ({e(str(fv.get('note')))})")
                continue
            err = fv.get("max_relative_error_in_u") or {}
            acc = (f"; worst relative error lhs {_u(err.get('lhs'))}, rhs "
                   f"{_u(err.get('rhs'))}" if err else "")
            if fv["exact"]:
                con.print(f"  {fmt}: both sides bit-identical on {fv['cases']} cases{acc}")
            else:
                ce = fv.get("counterexample") or {}
                con.print(f"  {fmt}: not exact, e.g. at {e(json.dumps(ce.get('bindings')))}: "
                          f"{e(str(ce.get('lhs')))} vs {e(str(ce.get('rhs')))}{acc}")
    src = doc.get("combine")
    con.print("\n[bold]Where it is used[/bold]")
    if src:
        con.print(f"  combine {src['name']} at {src['file']}:{src['line']}")
        for c in src["calls"]:
            con.print(f"    calls {c['name']} at {c['file']}:{c['line']}")
    for site in doc.get("call_sites", []):
        con.print(f"  {site['file']}:{site['line']}: {e(site['text'])}")
    if src and not doc.get("call_sites"):
        con.print("  no kernel in impls/ uses this combine")
    if doc.get("kernels"):
        con.print(f"  kernels relying on it: {', '.join(doc['kernels'])}")
    if not src and not doc.get("kernels"):
        con.print("  no kernel in impls/ relies on it")
    con.print(f"\n[bold]Licenses[/bold]  {e(doc['licenses'])}")
    if doc.get("systems"):
        # an anti-law's family text names where the correct law is used, not the anti-law
        label = "The correct law is used in" if doc["expect"] == FAILS else "In real systems"
        con.print(f"[bold]{label}[/bold]  {e(doc['systems'])}")


def _u(x) -> str:
    if x is None:
        return "?"
    if isinstance(x, str):
        return x
    return f"{x:.3g}u"


def _render_counterexample(con, ce: dict, st: dict | None) -> None:
    from rich.markup import escape as e
    con.print("  counterexample: " + ", ".join(f"{k} = {json.dumps(v)}"
                                              for k, v in ce.get("bindings", {}).items()))
    if st:
        for side, label in (("lhs", "left "), ("rhs", "right")):
            for c in st.get("calls", {}).get(side, []):
                con.print(f"    {e(c['call'])} = {e(c['value'])}")
            con.print(f"  {label} side = {e(str(st.get(side)))}")
        if st.get("note"):
            con.print(f"  [dim]{e(st['note'])}[/dim]")
    else:
        con.print(f"  left side = {e(json.dumps(ce.get('lhs')))}, right side = "
                  f"{e(json.dumps(ce.get('rhs')))}")
