"""``python -m verify explain ID``: the teaching view of one law."""
from __future__ import annotations

import json
from typing import Any

from rich.markup import escape as e

from verify import api
from verify.cli.output import emit_json, out_console
from verify.cli.progress import Waiting


def cmd_explain(args) -> int:
    """0 when the law's verdict agrees with its expectation, 1 when not, 2 for an
    unknown id."""
    api.find_law(args.law_id)
    with Waiting(f"explaining {args.law_id}"):
        doc = api.explain(args.law_id)
    if args.json:
        emit_json(doc)
    else:
        render(doc)
    verdict = doc.get("verdict") or {}
    return 0 if verdict.get("ok") else 1


def render(doc: dict, console: Any = None) -> None:
    """Question, state, derivation, verdict, near misses, floats, where it is used."""
    con = console or out_console()
    con.print(f"[bold]{e(doc['id'])}[/bold]  ({doc['property']}"
              + (f", {doc['secondary']}" if doc.get("secondary") else "")
              + (", anti-law: must fail" if doc["expect"] == "fails" else "") + ")")
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
    if doc.get("verdict"):
        _render_verdict(con, doc["verdict"])
    for anti in doc.get("anti_laws", []):
        con.print(f"\n[bold]Anti-law[/bold] {e(anti['id'])}: {e(anti['statement'])}")
        if anti.get("verdict"):
            colour = "green" if anti.get("ok") else "red"
            con.print(f"  [{colour}]{anti['verdict']}[/] (must fail) by {e(str(anti['method']))}")
        if anti.get("counterexample"):
            _render_counterexample(con, anti["counterexample"], anti.get("steps"))
        con.print(f"  licenses {e(anti['licenses'])}")
    if doc.get("floats"):
        _render_floats(con, doc["floats"])
    _render_uses(con, doc)
    con.print(f"\n[bold]Licenses[/bold]  {e(doc['licenses'])}")
    if doc.get("systems"):
        # an anti-law's family text names where the correct law is used, not the anti-law
        label = "The correct law is used in" if doc["expect"] == "fails" else "In real systems"
        con.print(f"[bold]{label}[/bold]  {e(doc['systems'])}")


def _render_verdict(con: Any, v: dict) -> None:
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


def _render_floats(con: Any, floats: dict) -> None:
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


def _render_uses(con: Any, doc: dict) -> None:
    src = doc.get("combine")
    con.print("\n[bold]Where it is used[/bold]")
    if src:
        con.print(f"  combine {src['name']} at {src['file']}:{src['line']}")
        for c in src["calls"]:
            con.print(f"    calls {c['name']} at {c['file']}:{c['line']}")
    for site in doc.get("call_sites", []):
        con.print(f"  {site['file']}:{site['line']}: {e(site['text'])}")
    if doc.get("kernels"):
        con.print(f"  kernels relying on it: {', '.join(doc['kernels'])}")
    if not src and not doc.get("call_sites") and not doc.get("kernels"):
        con.print("  no kernel in impls/ calls it")


def _u(x: Any) -> str:
    if x is None:
        return "?"
    if isinstance(x, str):
        return x
    return f"{x:.3g}u"


def _render_counterexample(con: Any, ce: dict, st: dict | None) -> None:
    con.print("  counterexample: " + e(", ".join(f"{k} = {json.dumps(v)}"
                                                for k, v in ce.get("bindings", {}).items())))
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
