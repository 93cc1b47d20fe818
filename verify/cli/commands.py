"""The catalog commands: all, laws, list, law, papers."""
from __future__ import annotations

import os
import time

from typing import Any

from rich.markup import escape

from verify import api
from verify.cli.kernel_cmd import certificates_table
from verify.cli.lawrun import run_laws, smt_dir
from verify.cli.output import STYLE, emit_json, out_console
from verify.cli.progress import Waiting
from verify.results import LawResult

PROPERTY_ORDER = ["associativity", "separability", "locality", "sparsity", "redundancy",
                  "symmetry"]


# --------------------------------------------------------------------------- laws
ID_WIDTH = 33          # the longest catalog id; a longer one widens its own line only
PROPERTY_WIDTH = 13    # "associativity", "separability"
VERDICT_WIDTH = 14     # "proved-bounded"
LAWS_LEGEND = ("✓ agrees with its expectation (an anti-law agrees when refuted); floats in "
               "the order f16 bf16 f32 f64: = exact, ≠ a replayed counterexample, ? undecided, "
               "· not run; s = seconds")


def law_lines(results: list[dict], long: bool = False, width: int = 80) -> list[str]:
    """One line per law, grouped by property and fitting 80 columns: id, property,
    verdict with ✓ (agrees) or ✗, the float marks and the seconds. ``long`` adds the
    statement (and the method) under each line, wrapped to ``width``. Rich markup."""
    header = (f"{'law':{ID_WIDTH}} {'property':{PROPERTY_WIDTH}} "
              f"{'verdict':{VERDICT_WIDTH + 2}} {'floats':7} {'s':>6}")
    lines = [f"[bold underline]{header}[/]"]
    for r in sorted(results, key=lambda r: (PROPERTY_ORDER.index(r["property"]), r["id"])):
        mark = "[green]✓[/]" if r["ok"] else "[bold red]✗[/]"
        verdict = f"[{STYLE.get(r['verdict'], '')}]{r['verdict']:{VERDICT_WIDTH}}[/] {mark}"
        seconds = f"{r['seconds']:6.2f}" if isinstance(r.get("seconds"), (int, float)) else " " * 6
        lines.append(f"{escape(r['id']):{ID_WIDTH}} {r['property']:{PROPERTY_WIDTH}} "
                     f"{verdict} {_float_marks(r.get('floats'))} {seconds}")
        if long:
            lines += _indented(f"{r['statement']}", width)
            lines += _indented(f"expect {r['expect']}; {_method_cell(r)}", width, "dim")
    return lines


def _indented(text: str, width: int, style: str = "") -> list[str]:
    import textwrap
    wrapped = textwrap.wrap(text, width=width - 4, break_long_words=True,
                            break_on_hyphens=False) or [""]
    return [f"[{style}]    {escape(line)}[/]" if style else f"    {escape(line)}"
            for line in wrapped]


def _float_marks(floats: dict | None) -> str:
    """= exact, ≠ not exact, ? undecided, · not run: f16 bf16 f32 f64, 7 columns."""
    marks = {True: "[green]=[/]", False: "[yellow]≠[/]", None: "?"}
    out = []
    for fmt in ("float16", "bfloat16", "float32", "float64"):
        v = (floats or {}).get(fmt)
        out.append("[dim]·[/]" if v is None else marks[v.get("exact")])
    return " ".join(out)


def _method_cell(r: dict) -> str:
    text = r["method"] or ""
    if r.get("bound"):
        text += f"; {r['bound']}"
    if r.get("cases"):
        text += f"; {r['cases']} cases"
    return text


def cmd_laws(args) -> int:
    ids = [row["id"] for row in api.catalog()["laws"]
           if args.property is None or row["property"] == args.property]
    results = run_laws(args, ids, floats=not args.no_floats)
    summ = api.summarize([LawResult(r) for r in results])
    if args.json:
        emit_json({"laws": results, "summary": summ})
    else:
        out = out_console()
        _print_law_lines(out, results, args.long)
        _print_summary(out, summ)
    return 0 if not summ["disagree"] else 1


def _print_law_lines(out: Any, results: list[dict], long: bool) -> None:
    for line in law_lines(results, long, min(out.width, 100)):
        out.print(line, overflow="ignore", crop=False)
    out.print(f"[dim]{LAWS_LEGEND}[/]")


def _print_summary(out: Any, summ: dict) -> None:
    counts = ", ".join(f"{k} {v}" for k, v in summ["verdicts"].items() if v)
    out.print(f"{summ['ok']}/{summ['total']} laws agree with their expectation ({counts})")
    if summ["disagree"]:
        out.print(f"[bold red]disagree:[/] {', '.join(summ['disagree'])}")


# --------------------------------------------------------------------------- list
def cmd_list(args) -> int:
    doc = api.catalog()
    if args.json:
        emit_json(doc)
        return 0
    out = out_console()
    out.print(f"[bold underline]{'law':{ID_WIDTH}} {'property':{PROPERTY_WIDTH}} "
              f"{'expect':6} kernels[/]")
    for r in sorted(doc["laws"], key=lambda r: (PROPERTY_ORDER.index(r["property"]), r["id"])):
        kernels = ", ".join(r["kernels"])
        room = max(out.width, 80) - ID_WIDTH - PROPERTY_WIDTH - 9
        if len(kernels) > room:   # the full list is under --long and in --json
            kernels = f"{len(r['kernels'])} kernels"
        out.print(f"{escape(r['id']):{ID_WIDTH}} {r['property']:{PROPERTY_WIDTH}} "
                  f"{r['expect']:6} {escape(kernels)}".rstrip(), overflow="ignore", crop=False)
        if args.long:
            for line in _indented(r["statement"], max(out.width, 80)):
                out.print(line)
            if r["kernels"]:
                for line in _indented("kernels: " + ", ".join(r["kernels"]),
                                      max(out.width, 80), "dim"):
                    out.print(line)
    out.print(f"{len(doc['laws'])} laws; kernels: {', '.join(doc['kernels']) or 'none'}")
    return 0


# --------------------------------------------------------------------------- law
def cmd_law(args) -> int:
    api.find_law(args.law_id)
    from verify.decide.policy import CATALOG
    with Waiting(f"checking {args.law_id}"):
        result = api.check(args.law_id, CATALOG.with_(smt_dir=smt_dir(args)))
    if args.json:
        emit_json(result.to_json())
    else:
        print_law(api.find_law(args.law_id), result.to_json())
    return 0 if result.ok else 1


def show_value(value: Any, labels: tuple = ()) -> str:
    if isinstance(value, list) and labels and len(labels) == len(value):
        return "(" + ", ".join(f"{k}={plain(v)}"
                               for k, v in zip(labels, value, strict=True)) + ")"
    return plain(value)


def plain(value: Any) -> str:
    """A value of a JSON result as text: lists in brackets, numbers carried as strings
    (high-precision decimals) without quotes."""
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    return str(value)


def print_law(law, r: dict) -> None:
    out = out_console()
    style = STYLE.get(r["verdict"], "")
    out.print(f"[bold]{law.id}[/]  ({r['property']}"
              + (f", also {r['secondary']}" if r.get("secondary") else "") + ")")
    out.print(f"  statement: {escape(law.statement)}")
    out.print(f"  licenses:  {escape(law.licenses)}")
    if law.doc:
        out.print(f"  about:     {escape(law.doc)}")
    out.print(f"  expect {r['expect']}; verdict [{style}]{r['verdict']}[/] "
              f"({'agrees' if r['ok'] else 'DISAGREES'}) in {r['seconds']:.3f} s")
    out.print(f"  method:    {escape(_method_cell(r))}")
    if r.get("assumptions"):
        out.print("  assuming:  " + escape("; ".join(r["assumptions"])))
    if r.get("reason"):
        out.print(f"  note:      {escape(r['reason'])}")
    if r.get("counterexample"):
        _print_counterexample(out, law, r["counterexample"])
    if r.get("floats"):
        _print_floats(out, r["floats"])
    if r.get("kernel_sites"):
        out.print("  kernels use it at:")
        for s in r["kernel_sites"]:
            out.print(f"    {escape(s)}")


def _print_counterexample(out: Any, law, cx: dict) -> None:
    out.print("  counterexample (rejected on two independent samples):"
              if law.method == "probabilistic" else
              "  counterexample (replayed in high precision):")
    labels = {}
    if law.method != "free-monoid":
        labels = {v.name: v.labels for v in law.vars_for(cx.get("instance", {}))}
    for name, value in cx["bindings"].items():
        out.print(f"    {name} = {escape(show_value(value, labels.get(name, ())))}")
    out.print(f"    lhs = {escape(plain(cx['lhs']))}")
    out.print(f"    rhs = {escape(plain(cx['rhs']))}")
    if cx.get("gap") is not None:
        out.print(f"    |lhs − rhs| = {cx['gap']}")


def _print_floats(out: Any, floats: dict) -> None:
    out.print("  floats:")
    for fmt, v in floats.items():
        exact = {True: "exact", False: "not exact", None: "undecided"}[v.get("exact")]
        line = f"    {fmt:9s} {exact} ({v.get('method') or v.get('note', '')})"
        err = v.get("max_relative_error_in_u")
        if err and isinstance(err["lhs"], float) and isinstance(err["rhs"], float):
            line += (f"; worst error against the oracle {err['lhs']:.3g}u / "
                     f"{err['rhs']:.3g}u (lhs / rhs)")
        out.print(escape(line))
        if v.get("counterexample"):
            c = v["counterexample"]
            out.print(escape(f"      at {c['bindings']}: lhs = {plain(c['lhs'])}, "
                             f"rhs = {plain(c['rhs'])}"))


# --------------------------------------------------------------------------- papers
def cmd_papers(args) -> int:
    with Waiting("checking the laws the papers name"):
        results = api.check_papers()
    if args.json:
        emit_json({"papers": results,
                   "summary": {"total": len(results), "ok": sum(p["ok"] for p in results)}})
    else:
        _print_papers(out_console(), results)
    return 0 if all(p["ok"] for p in results) else 1


_CLAIM_MARK = {"confirmed": "green", "conditional": "yellow", "refuted": "red",
               "needs-gpu": "cyan", "not-checkable": "dim"}


def _print_papers(out: Any, results: list[dict]) -> None:
    import papers
    for p in results:
        mark = "[green]✓[/]" if p["ok"] else "[bold red]✗[/]"
        out.print(f"{mark} [bold]{escape(p['id'])}[/] {escape(p['authors'])} ({p['year']}). "
                  f"{escape(p['title'])}. {escape(p['venue'])}")
        for c in p["claims"]:
            color = _CLAIM_MARK.get(c["verdict"], "white")
            out.print(f"    [{color}]{c['verdict']}[/] ({c['kind']}) {escape(c['text'])}")
            out.print(f"      [dim]{escape(c['where'])}: {escape(papers.reason(c))}[/]")
    counts: dict[str, int] = {}
    for p in results:
        for c in p["claims"]:
            counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    out.print("claims: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())))


# --------------------------------------------------------------------------- all
def cmd_all(args) -> int:
    started = time.perf_counter()
    results = run_laws(args, [row["id"] for row in api.catalog()["laws"]])
    summ = api.summarize([LawResult(r) for r in results])
    by_id = {r["id"]: r for r in results}
    papers = api.check_papers(by_id)
    certs: list[dict] = []
    stale: list[dict] = []
    if not args.no_certify:
        certs = [c.to_json() for c in api.certify_all(
            backend=args.backend, out=args.out, seed=args.seed, law_results=by_id)]
        stale = api.stale_certificates(args.out)
    ok = (not summ["disagree"] and all(p["ok"] for p in papers)
          and all(c.get("pass") for c in certs))
    doc = {"laws": results, "papers": papers, "certificates": certs, "stale": stale,
           "summary": {"laws": summ,
                       "papers": {"total": len(papers), "ok": sum(p["ok"] for p in papers)},
                       "certificates": {"total": len(certs),
                                        "pass": sum(bool(c.get("pass")) for c in certs)},
                       "stale": len(stale), "ok": ok}}
    report = None
    if args.report is not None:
        from verify.cli import report_cmd
        checked = time.perf_counter() - started
        report = report_cmd.write(args.report, results, papers,
                                  args.out if os.path.isdir(args.out) else None)
        doc["report"] = {**report.to_json(), "run_seconds": round(checked, 3)}
    if args.json:
        emit_json(doc)
        return 0 if ok else 1
    out = out_console()
    _print_law_lines(out, results, False)
    _print_summary(out, summ)
    _print_papers(out, papers)
    if certs:
        out.print(certificates_table(certs, "certificates"))
    for s in stale:
        out.print(f"[yellow]stale certificate[/] {escape(str(s.get('path')))}: "
                  f"{escape(str(s.get('reason')))}")
    if report is not None:
        from verify.cli.report_cmd import describe
        out.print(escape(describe(report, args.out)), overflow="fold")
    out.print("[bold green]all agree[/]" if ok else "[bold red]something disagrees[/]")
    return 0 if ok else 1
