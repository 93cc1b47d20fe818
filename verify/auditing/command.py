"""``python -m verify audit FILE.py:FUNC [--json] [--example ARGS]``: the command and
its readable rendering (the only auditing code that prints)."""
from __future__ import annotations

import json
import sys

from verify.auditing.audit import audit
from verify.auditing.floats import FLOAT_FORMATS
from verify.auditing.load import AuditError
from verify.auditing.report import HOLDING
from verify.auditing.trace import show

PROVED, PROVED_BOUNDED, TESTED, UNKNOWN, REFUTED = (
    "proved", "proved-bounded", "tested", "unknown", "refuted")


def cmd_audit(args) -> int:
    """``python -m verify audit FILE.py:FUNC [--json] [--example ARGS]``."""
    try:
        report = audit(args.target, getattr(args, "example", None)).to_json()
    except AuditError as exc:
        print(f"audit: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(report, ensure_ascii=False))
    else:
        render(report)
    return 0


_MARK = {PROVED: "green", PROVED_BOUNDED: "green", TESTED: "yellow", UNKNOWN: "magenta",
         REFUTED: "red", "exact": "green", "inexact": "red", "not-evaluated": "dim"}


def render(report: dict, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    con = console or Console()
    con.print(f"[bold]{report['function']}[/bold]: {report['kind']} "
              f"({', '.join(report['parameters'])} → {report['result']})")
    for note in report["notes"]:
        con.print(f"  [dim]· {note}[/dim]")
    table = Table(show_lines=False)
    for col in ("property", "over ℝ", "float32", "float64"):
        table.add_column(col, overflow="fold")
    for name, p in report["properties"].items():
        r = p["reals"]
        verdict = r["verdict"]
        if r.get("bound") and verdict in (PROVED_BOUNDED,):
            verdict += f" ({r['bound']})"
        if r.get("cases"):
            verdict += f" ({r['cases']} cases)"
        el = r.get("element")
        if name == "identity" and el is not None:
            verdict += f", e = {show(el)}"
        if name == "locality" and el is not None:
            verdict += (f", radius {el['radius']}" if "radius" in el
                        else f", reads x{el['depends_on']}")
        cells = [name, f"[{_MARK.get(r['verdict'], 'white')}]{verdict}[/]"]
        for fmt in FLOAT_FORMATS:
            fv = p[fmt]["verdict"]
            cells.append(f"[{_MARK.get(fv, 'white')}]{fv}[/]")
        table.add_row(*cells)
    con.print(table)
    licensed = [(n, p["licenses"]) for n, p in report["properties"].items() if p["licenses"]]
    if licensed:
        con.print("[bold]What holds licenses[/bold]")
        for name, text in licensed:
            con.print(f"  {name}: {text}")
    for name, p in report["properties"].items():
        r = p["reals"]
        if r["verdict"] == REFUTED and r.get("counterexample") is not None:
            con.print(f"\n[bold red]{name}[/bold red] fails: {p['statement']}")
            con.print("  at " + ", ".join(f"{k} = {show(_unplain(v))}"
                                          for k, v in r["bindings"].items()))
            steps = r.get("steps") or {}
            for side in ("lhs", "rhs"):
                for c in steps.get(f"{side}_calls", []):
                    con.print(f"    {c['call']} = {c['value']}")
                con.print(f"  {'left ' if side == 'lhs' else 'right'} side = "
                          f"{steps.get(side)}")
            if steps and not steps.get("exact"):
                con.print("  [dim](values to 20 digits, computed at 177 bits)[/dim]")
        elif r["verdict"] in (UNKNOWN, REFUTED) and r.get("reason"):
            con.print(f"\n[bold]{name}[/bold]: {r['reason']}")
        elif r.get("reason"):
            con.print(f"\n[bold]{name}[/bold] ({r['verdict']}): {r['reason']}")
        if r.get("assumptions") and r["verdict"] in HOLDING:
            con.print(f"  [dim]{name} assumes: {'; '.join(r['assumptions'])}[/dim]")
        for fmt in FLOAT_FORMATS:
            fv = p[fmt]
            if r["verdict"] == REFUTED:
                break  # failing over ℝ already; the float discrepancy adds nothing
            if fv.get("verdict") == "inexact" and fv.get("counterexample") is not None:
                sides = fv.get("sides", {})
                con.print(f"  [dim]{name} in {fmt}: differs at "
                          f"{show(_unplain(fv['counterexample']))}: "
                          f"{sides.get('lhs')} vs {sides.get('rhs')}[/dim]")


def _unplain(v):
    if isinstance(v, list):
        return tuple(_unplain(x) for x in v)
    return v
