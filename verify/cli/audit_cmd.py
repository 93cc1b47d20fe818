"""``python -m verify audit FILE.py:FUNC``: the report of which properties a user's
function has. The file is loaded and run in a child process (``verify.cli.sandbox``)."""
from __future__ import annotations

from typing import Any

from rich.markup import escape
from rich.table import Table

from verify.cli import sandbox
from verify.errors import BadInput
from verify.cli.output import emit_json, out_console

FLOAT_FORMATS = ("float32", "float64")
HOLDING = ("proved", "proved-bounded", "tested")
_MARK = {"proved": "green", "proved-bounded": "green", "tested": "yellow",
         "unknown": "magenta", "refuted": "red", "exact": "green", "inexact": "red",
         "not-evaluated": "dim"}


def cmd_audit(args) -> int:
    """0 once the report is written (a property failing is a finding, not a
    disagreement); 2 on bad input."""
    doc = sandbox.run({"kind": "audit", "target": args.target, "example": args.example,
                       "domains": _domains(args.domain), "policy": None}, args.timeout,
                      f"auditing {args.target}", load_timeout=args.load_timeout,
                      memory_gib=args.memory)
    if args.json:
        emit_json(doc)
    else:
        render(doc)
    return 0


def _domains(items: list[str] | None) -> dict[str, str]:
    """``NAME=KIND`` options as a dict; a kind that is no domain is bad input."""
    from verify.engine import domains
    out = {}
    for item in items or []:
        name, sep, kind = item.partition("=")
        if not sep or not name or not kind:
            raise BadInput(f"--domain {item!r}: expected NAME=KIND")
        try:
            out[name] = domains.get(kind).name
        except domains.UnknownDomain as exc:
            raise BadInput(f"--domain {item}: {exc}") from None
    return out


def _verdict_cell(name: str, r: dict) -> str:
    verdict = r["verdict"]
    if r.get("bound") and verdict == "proved-bounded":
        verdict += f" ({r['bound']})"
    if r.get("cases"):
        verdict += f" ({r['cases']} cases)"
    el = r.get("element")
    if name == "identity" and el is not None:
        verdict += f", e = {show(el)}"
    if name == "locality" and el is not None:
        verdict += (f", radius {el['radius']}" if "radius" in el
                    else f", reads x{el['depends_on']}")
    return f"[{_MARK.get(r['verdict'], 'white')}]{escape(verdict)}[/]"


def render(report: dict) -> None:
    """The readable report: a table of verdicts, what holds licenses, then each
    failure with its counterexample evaluated call by call."""
    con = out_console()
    con.print(f"[bold]{escape(report['function'])}[/bold]: {report['kind']} "
              f"({', '.join(report['parameters'])} → {report['result']})")
    for note in report["notes"]:
        con.print(f"  [dim]· {escape(note)}[/dim]")
    table = Table(show_lines=False)
    table.add_column("property", no_wrap=True)
    table.add_column("over ℝ")
    for fmt in FLOAT_FORMATS:
        table.add_column(fmt, no_wrap=True)
    for name, p in report["properties"].items():
        cells = [name, _verdict_cell(name, p["reals"])]
        for fmt in FLOAT_FORMATS:
            fv = p[fmt]["verdict"]
            cells.append(f"[{_MARK.get(fv, 'white')}]{fv}[/]")
        table.add_row(*cells)
    con.print(table)
    licensed = [(n, p["licenses"]) for n, p in report["properties"].items() if p["licenses"]]
    if licensed:
        con.print("[bold]What holds licenses[/bold]")
        for name, text in licensed:
            con.print(f"  {name}: {escape(text)}")
    for name, p in report["properties"].items():
        _render_property(con, name, p)


def _render_property(con: Any, name: str, p: dict) -> None:
    r = p["reals"]
    if r["verdict"] == "refuted" and r.get("counterexample") is not None:
        con.print(f"\n[bold red]{name}[/bold red] fails: {escape(p['statement'])}")
        con.print("  at " + escape(", ".join(f"{k} = {show(_unplain(v))}"
                                             for k, v in r["bindings"].items())))
        steps = r.get("steps") or {}
        for side in ("lhs", "rhs"):
            for c in steps.get(f"{side}_calls", []):
                con.print(f"    {escape(c['call'])} = {escape(c['value'])}")
            con.print(f"  {'left ' if side == 'lhs' else 'right'} side = "
                      f"{escape(str(steps.get(side)))}")
        if steps.get("plain"):
            con.print("  [dim](computed by Python itself on these values)[/dim]")
        elif steps and not steps.get("exact"):
            con.print("  [dim](values to 20 digits, computed at 177 bits)[/dim]")
    elif r["verdict"] in ("unknown", "refuted") and r.get("reason"):
        con.print(f"\n[bold]{name}[/bold]: {escape(r['reason'])}")
    elif r.get("reason"):
        con.print(f"\n[bold]{name}[/bold] ({r['verdict']}): {escape(r['reason'])}")
    if r.get("assumptions") and r["verdict"] in HOLDING:
        con.print(f"  [dim]{name} assumes: {escape('; '.join(r['assumptions']))}[/dim]")
    if r["verdict"] == "refuted":
        return  # failing over ℝ already; a float discrepancy adds nothing
    for fmt in FLOAT_FORMATS:
        fv = p[fmt]
        if fv.get("verdict") == "inexact" and fv.get("counterexample") is not None:
            sides = fv.get("sides", {})
            con.print(f"  [dim]{name} in {fmt}: differs at "
                      f"{escape(show(_unplain(fv['counterexample'])))}: "
                      f"{escape(str(sides.get('lhs')))} vs "
                      f"{escape(str(sides.get('rhs')))}[/dim]")


def show(x: Any) -> str:
    """A value from the JSON report as text: tuples in parentheses, ±∞ as symbols."""
    if isinstance(x, (tuple, list)):
        inner = ", ".join(show(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if isinstance(x, float):
        if x == float("-inf"):
            return "−∞"
        if x == float("inf"):
            return "+∞"
        return str(int(x)) if x == int(x) and abs(x) < 2 ** 53 else repr(x)
    if isinstance(x, str) and x in ("inf", "-inf"):
        return "+∞" if x == "inf" else "−∞"
    return str(x)


def _unplain(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_unplain(x) for x in v)
    return v
