"""The catalog commands: all, laws, list, law, papers."""
from __future__ import annotations

import difflib
import math
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from verify.cli.output import emit_json
from verify.errors import BadInput as UsageError

OUT = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
ERR = Console(stderr=True, highlight=False)

_STYLE = {"proved": "bold green", "proved-bounded": "green", "tested": "cyan",
          "unknown": "yellow", "refuted": "magenta", "error": "bold red"}


def jsonable(x: Any) -> Any:
    """Non-finite floats become strings so the document stays strict JSON."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    return x


def law_or_usage_error(law_id: str):
    from laws import REGISTRY
    if law_id in REGISTRY:
        return REGISTRY[law_id]
    close = difflib.get_close_matches(law_id, REGISTRY.ids(), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else "; see `python -m verify list`"
    raise UsageError(f"unknown law id {law_id!r}{hint}")


# --------------------------------------------------------------------------- laws
def run_laws(args, ids: list[str], floats: bool = True) -> list[dict]:
    from rich.progress import Progress

    from verify.decide.check import check_many

    if args.json or not sys.stderr.isatty():
        done = [0]

        def note(res: dict) -> None:
            done[0] += 1
            if not res["ok"] and not args.json:
                ERR.print(f"  {res['id']}: {res['verdict']} (expected {res['expect']})")
        return check_many(ids, jobs=args.jobs, floats=floats, progress=note)
    with Progress(console=ERR, transient=True) as progress:
        task = progress.add_task("checking laws", total=len(ids))
        return check_many(ids, jobs=args.jobs, floats=floats,
                          progress=lambda r: progress.advance(task))


def laws_table(results: list[dict]) -> Table:
    """One row per law, grouped by property; `law ID` shows the details."""
    table = Table(title="laws", show_lines=False, pad_edge=False)
    for col, kw in (("law", {"no_wrap": True}), ("expect", {}), ("verdict", {}),
                    ("", {}), ("f16 bf16 f32 f64", {"no_wrap": True}),
                    ("s", {"justify": "right"})):
        table.add_column(col, **kw)
    current = None
    for r in sorted(results, key=lambda r: _PROPERTY_ORDER.index(r["property"])):
        if r["property"] != current:
            current = r["property"]
            table.add_row(f"[bold]{current}[/]", "", "", "", "", "")
        table.add_row("  " + r["id"], r["expect"],
                      f"[{_STYLE.get(r['verdict'], '')}]{r['verdict']}[/]",
                      "[green]✓[/]" if r["ok"] else "[bold red]✗[/]",
                      _floats_cell(r["floats"]), f"{r['seconds']:.2f}")
    return table


_PROPERTY_ORDER = ["associativity", "separability", "locality", "sparsity", "redundancy",
                   "symmetry"]


def _method_cell(r: dict) -> str:
    text = r["method"] or ""
    if r.get("bound"):
        text += f"; {r['bound']}"
    if r.get("cases"):
        text += f"; {r['cases']} cases"
    return text


def _floats_cell(floats: dict | None) -> str:
    """= exact, ≠ not exact, ? undecided, per format in the column's order."""
    if not floats:
        return "—"
    marks = {True: "[green]=[/]", False: "[yellow]≠[/]", None: "?"}
    widths = {"float16": 4, "bfloat16": 5, "float32": 4, "float64": 3}
    return "".join(marks[v.get("exact")] + " " * widths.get(fmt, 3)
                   for fmt, v in floats.items()).rstrip()


def cmd_laws(args) -> int:
    from laws import REGISTRY
    from verify.decide.check import summary
    ids = [law.id for law in REGISTRY
           if args.property is None or law.property.value == args.property]
    results = run_laws(args, ids, floats=not args.no_floats)
    summ = summary(results)
    if args.json:
        emit_json(jsonable({"laws": results, "summary": summ}))
    else:
        OUT.print(laws_table(results))
        _print_summary(summ)
    return 0 if not summ["disagree"] else 1


def _print_summary(summ: dict) -> None:
    counts = ", ".join(f"{k} {v}" for k, v in summ["verdicts"].items() if v)
    OUT.print(f"{summ['ok']}/{summ['total']} laws agree with their expectation ({counts}); "
              "floats: = exact on every case tried, ≠ a replayed counterexample")
    if summ["disagree"]:
        OUT.print(f"[bold red]disagree:[/] {', '.join(summ['disagree'])}")


# --------------------------------------------------------------------------- list
def cmd_list(args) -> int:
    import impls
    from laws import REGISTRY
    rows = [{"id": law.id, "property": law.property.value, "expect": law.expect,
             "statement": law.statement, "kernels": list(law.kernels)} for law in REGISTRY]
    kernels = impls.kernel_names()
    if args.json:
        emit_json({"laws": rows, "kernels": kernels})
        return 0
    table = Table(title=f"{len(rows)} laws")
    for col in ("law", "property", "expect", "statement"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"], r["property"], r["expect"], r["statement"])
    OUT.print(table)
    OUT.print(f"kernels: {', '.join(kernels) or 'none'}")
    return 0


# --------------------------------------------------------------------------- law
def cmd_law(args) -> int:
    from verify.decide.check import check_law
    law = law_or_usage_error(args.law_id)
    result = check_law(law)
    result["kernel_sites"] = kernel_sites(law)
    if args.json:
        emit_json(jsonable(result))
    else:
        print_law(law, result)
    return 0 if result["ok"] else 1


def kernel_sites(law) -> list[str]:
    """file:line of the combine's definition, the shared combines it calls and each use
    of them in impls/ (verify.teaching.sites, the finder explain uses too); empty when
    no kernel uses the combine."""
    from verify.teaching.sites import site_lines
    return site_lines(law)


def show_value(value: Any, labels: tuple = ()) -> str:
    if isinstance(value, list) and labels and len(labels) == len(value):
        return "(" + ", ".join(f"{k}={v}" for k, v in zip(labels, value)) + ")"
    return str(value)


def print_law(law, r: dict) -> None:
    style = _STYLE.get(r["verdict"], "")
    OUT.print(f"[bold]{law.id}[/]  ({r['property']}"
              + (f", also {r['secondary']}" if r.get("secondary") else "") + ")")
    OUT.print(f"  statement: {escape(law.statement)}")
    OUT.print(f"  licenses:  {escape(law.licenses)}")
    if law.doc:
        OUT.print(f"  about:     {escape(law.doc)}")
    OUT.print(f"  expect {r['expect']}; verdict [{style}]{r['verdict']}[/] "
              f"({'agrees' if r['ok'] else 'DISAGREES'}) in {r['seconds']:.3f} s")
    OUT.print(f"  method:    {_method_cell(r)}")
    if r.get("assumptions"):
        OUT.print("  assuming:  " + escape("; ".join(r["assumptions"])))
    if r.get("reason"):
        OUT.print(f"  note:      {escape(r['reason'])}")
    cx = r.get("counterexample")
    if cx:
        OUT.print("  counterexample (replayed in high precision):")
        labels = {}
        if law.method != "free-monoid":
            labels = {v.name: v.labels for v in law.vars_for(cx.get("instance", {}))}
        for name, value in cx["bindings"].items():
            OUT.print(f"    {name} = {escape(show_value(value, labels.get(name, ())))}")
        OUT.print(f"    lhs = {escape(str(cx['lhs']))}")
        OUT.print(f"    rhs = {escape(str(cx['rhs']))}")
        if cx.get("gap") is not None:
            OUT.print(f"    |lhs − rhs| = {cx['gap']}")
    if r.get("floats"):
        OUT.print("  floats:")
        for fmt, v in r["floats"].items():
            exact = {True: "exact", False: "not exact", None: "undecided"}[v.get("exact")]
            line = f"    {fmt:9s} {exact} ({v.get('method') or v.get('note', '')})"
            err = v.get("max_relative_error_in_u")
            if err:
                line += (f"; worst error against the oracle {err['lhs']:.3g}u / "
                         f"{err['rhs']:.3g}u (lhs / rhs)") \
                    if isinstance(err["lhs"], float) and isinstance(err["rhs"], float) else ""
            OUT.print(line)
            if v.get("counterexample"):
                c = v["counterexample"]
                OUT.print(escape(f"      at {c['bindings']}: lhs = {c['lhs']}, rhs = {c['rhs']}"))
    if r.get("kernel_sites"):
        OUT.print("  kernels use it at:")
        for s in r["kernel_sites"]:
            OUT.print(f"    {s}")


# --------------------------------------------------------------------------- papers
def check_papers(law_results: dict[str, dict] | None = None) -> list[dict]:
    from laws import REGISTRY
    from papers import PAPERS
    from verify.decide.check import check_law
    cache = dict(law_results or {})
    out = []
    for paper in PAPERS.values():
        claims = []
        for claim in paper.claims:
            verdicts = {}
            for law_id in claim.laws:
                if law_id not in REGISTRY:
                    verdicts[law_id] = {"verdict": "missing", "ok": False}
                    continue
                if law_id not in cache:
                    cache[law_id] = check_law(REGISTRY[law_id], floats=False)
                verdicts[law_id] = {"verdict": cache[law_id]["verdict"],
                                    "ok": cache[law_id]["ok"]}
            claims.append({"text": claim.text, "laws": verdicts,
                           "ok": all(v["ok"] for v in verdicts.values())})
        out.append({"id": paper.id, "title": paper.title, "authors": paper.authors,
                    "year": paper.year, "venue": paper.venue, "claims": claims,
                    "ok": all(c["ok"] for c in claims)})
    return out


def cmd_papers(args) -> int:
    results = check_papers()
    if args.json:
        emit_json({"papers": results,
                   "summary": {"total": len(results), "ok": sum(p["ok"] for p in results)}})
    else:
        _print_papers(results)
    return 0 if all(p["ok"] for p in results) else 1


def _print_papers(results: list[dict]) -> None:
    for p in results:
        mark = "[green]✓[/]" if p["ok"] else "[bold red]✗[/]"
        OUT.print(f"{mark} [bold]{p['id']}[/] {p['authors']} ({p['year']}). {p['title']}. "
                  f"{p['venue']}")
        for c in p["claims"]:
            laws = ", ".join(f"{k}: {v['verdict']}" for k, v in c["laws"].items())
            OUT.print(f"    {'✓' if c['ok'] else '✗'} {escape(c['text'])}  "
                      f"{escape('[' + laws + ']')}")


# --------------------------------------------------------------------------- all
def cmd_all(args) -> int:
    from laws import REGISTRY
    from verify.decide.check import summary
    results = run_laws(args, REGISTRY.ids())
    summ = summary(results)
    papers = check_papers({r["id"]: r for r in results})
    certs: list[dict] = []
    stale: list[dict] = []
    if not args.no_certify:
        from verify.certification import certify
        try:
            certs = certify.certify_all(backend=args.backend, out_dir=args.out,
                                        seed=args.seed, progress=not args.json)
        except certify.BadInput as exc:
            raise UsageError(str(exc)) from exc
        stale = certify.stale_certificates(args.out)
    ok = (not summ["disagree"] and all(p["ok"] for p in papers)
          and all(c.get("pass") for c in certs))
    doc = {"laws": results, "papers": papers, "certificates": certs, "stale": stale,
           "summary": {"laws": summ,
                       "papers": {"total": len(papers), "ok": sum(p["ok"] for p in papers)},
                       "certificates": {"total": len(certs),
                                        "pass": sum(bool(c.get("pass")) for c in certs)},
                       "stale": len(stale), "ok": ok}}
    if args.json:
        emit_json(jsonable(doc))
        return 0 if ok else 1
    OUT.print(laws_table(results))
    _print_summary(summ)
    _print_papers(papers)
    if certs:
        table = Table(title="certificates")
        for col in ("kernel", "backend", "dtypes", "max ρ", "planted bugs caught", "pass"):
            table.add_column(col)
        for c in certs:
            planted = c.get("planted") or {}
            caught = sum(bool(p.get("caught")) for p in planted.values())
            rho = c.get("rho")
            table.add_row(c["kernel"], c["backend"], ", ".join(_cert_dtypes(c)),
                          f"{rho:.3g}" if isinstance(rho, (int, float)) else str(rho),
                          f"{caught}/{len(planted)}",
                          "[green]✓[/]" if c.get("pass") else "[bold red]✗[/]")
        OUT.print(table)
    for s in stale:
        OUT.print(f"[yellow]stale certificate[/] {s.get('path')}: {s.get('reason')}")
    OUT.print("[bold green]all agree[/]" if ok else "[bold red]something disagrees[/]")
    return 0 if ok else 1


def _cert_dtypes(cert: dict) -> list[str]:
    d = cert.get("dtypes") or {}
    return [f"{name} (skipped)" if isinstance(info, dict) and info.get("status") == "skipped"
            else name for name, info in d.items()]
