"""``python -m verify exercise [NAME [FILE.py:FUNC]]``: list the exercises, state one,
or check an answer. An answer file is loaded and run in a child process
(``verify.cli.sandbox``)."""
from __future__ import annotations

import json

from rich.markup import escape as e

from verify import api
from verify.cli import sandbox
from verify.cli.output import emit_json, out_console


def cmd_exercise(args) -> int:
    """0 for a list, a statement or a right answer; 1 for a wrong answer; 2 on bad input
    (an unknown exercise, an answer that cannot be loaded, raises, loops or returns
    None)."""
    if not args.name:
        doc: dict = {"exercises": api.exercises()}
        render = _render_list
    elif not args.target:
        doc, render = api.exercise(args.name), _render_statement
    else:
        api.exercise(args.name)
        doc = sandbox.run({"kind": "exercise", "name": args.name, "target": args.target},
                          args.timeout, f"checking {args.target}",
                          load_timeout=args.load_timeout, memory_gib=args.memory)
        render = _render_result
    if args.json:
        emit_json(doc)
    else:
        render(doc)
    return 1 if doc.get("passed") is False else 0


def _render_list(doc: dict) -> None:
    con = out_console()
    for x in doc["exercises"]:
        con.print(f"[bold]{x['name']}[/bold]  {e(x['title'])}  [dim]({x['kind']})[/dim]")
    con.print("\n[dim]python -m verify exercise NAME  states one; add FILE.py:FUNC to "
              "check your answer[/dim]")


def _render_statement(doc: dict) -> None:
    con = out_console()
    con.print(f"[bold]{e(doc['title'])}[/bold] ({doc['name']})\n")
    con.print(e(doc["prompt"]))
    if doc["signature"]:
        con.print(f"\nWrite: [bold]{e(doc['signature'])}[/bold]")
    con.print(f"Check: {doc['check']}")


def _render_check(con, c: dict) -> None:
    con.print(f"  {c['check']}: {c['verdict']}  [dim]{e(c['statement'])}[/dim]")
    if c.get("counterexample"):
        con.print("    at " + e(", ".join(f"{k} = {json.dumps(v)}"
                                          for k, v in c["counterexample"].items())))
        st = c.get("steps") or {}
        for side, label in (("lhs", "left "), ("rhs", "right")):
            for call in st.get(f"{side}_calls", []):
                con.print(f"      {e(call['call'])} = {e(call['value'])}")
            if side in st:
                con.print(f"    {label} side = {e(str(st[side]))}")
        if c.get("sides"):
            con.print(e(f"    left {c['sides'].get('lhs')} vs right {c['sides'].get('rhs')}"))


def _render_evidence(con, ev: dict) -> None:
    fl = ev.get("float")
    con.print(f"  {ev['law']}: {ev['verdict']} over ℝ  [dim]{e(ev['statement'])}[/dim]")
    ce = ev.get("counterexample")
    if fl:
        ce = fl.get("counterexample")
        con.print(f"    in {fl['format']}: "
                  + ("bit-exact on the cases tried" if fl.get("exact") else "not exact"))
    if ce:
        con.print(f"    counterexample {e(json.dumps(ce.get('bindings')))}: "
                  f"{e(json.dumps(ce.get('lhs')))} vs {e(json.dumps(ce.get('rhs')))}")


def _render_result(doc: dict) -> None:
    con = out_console()
    colour = "green" if doc["passed"] else "red"
    con.print(f"[bold {colour}]{e(doc['message'])}[/]")
    for c in doc.get("checks", []):
        _render_check(con, c)
    if doc.get("evidence"):
        _render_evidence(con, doc["evidence"])
    if doc.get("hint"):
        con.print(f"\n[bold]Hint[/bold] {e(doc['hint'])}")
    if doc.get("explanation"):
        con.print(f"\n[bold]Why[/bold] {e(doc['explanation'])}")
    if doc.get("law"):
        con.print(f"[dim]More: python -m verify explain {doc['law']}[/dim]")
