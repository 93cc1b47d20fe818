"""The kernel commands: certify and bench."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.table import Table

from verify import api, kernelnames
from verify.cli import failing_cases
from verify.cli.output import emit_json, out_console
from verify.cli.progress import Counter
from verify.errors import BadInput


SUPPORTED_DTYPES = ("float16", "bfloat16", "float32", "float64")
BINDING_LOAD_TIMEOUT = 120.0   # seconds to load the users' kernel files and describe them


def check_certify_arguments(args) -> None:
    """Everything ``certify`` can check before it certifies anything, so that a bad
    argument is one line and exit 2 with nothing written and no progress line: the
    kernel names, the users' kernel files (loaded in a child process, their specs'
    names and dtypes checked, each binding's wrapper run once on its smallest case per
    dtype: probe.py), the backend, and the certificate files' places under ``--out``
    (the directory itself is checked by ``main``)."""
    from verify import userfiles
    kernels = list(args.kernels)
    targets = [k for k in kernels if k.endswith(".py") or ".py:" in k]
    for target in targets:  # what can be said without running the file
        path, _ = userfiles.split_target(target, what="FILE.py or FILE.py:NAME",
                                         default="KERNEL")
        userfiles.read_source(path)
    names = ([k for k in kernels if k not in targets] if kernels else api.kernel_names())
    names = kernelnames.resolve(names) if names else []
    from verify.certification.document import filename as certificate_filename
    from verify.cli import sandbox
    backend = api.resolve_backend(args.backend)
    if targets:
        doc = sandbox.run({"kind": "bindings", "target": ", ".join(targets),
                           "targets": targets, "backend": backend, "seed": args.seed},
                          BINDING_LOAD_TIMEOUT,
                          f"loading {', '.join(targets)}", memory_gib=0)
        for kernel in doc["kernels"]:
            odd = [d for d in kernel["dtypes"] if d not in SUPPORTED_DTYPES]
            if odd or not kernel["dtypes"]:
                raise BadInput(f"{kernel['target']}: dtype(s) "
                               f"{', '.join(map(str, odd)) or '(none)'} cannot be certified "
                               f"(supported: {', '.join(SUPPORTED_DTYPES)})")
            names.append(kernel["name"])
    for name in names:
        place = Path(args.out) / certificate_filename({"kernel": name, "backend": backend})
        if place.is_dir():
            raise BadInput(f"--out {args.out}: a directory is in the way of the "
                           f"certificate {place}")


def cmd_certify(args) -> int:
    """0 when every certificate passes, 1 if one fails, 2 on bad input (unknown kernel,
    a kernel file that does not load, an unsupported dtype, backend unavailable), found
    before any work."""
    check_certify_arguments(args)
    certificates = [c.to_json() for c in api.certify_all(
        args.kernels, args.backend, seed=args.seed, out=args.out,
        isolate=getattr(args, "isolate", True))]
    failed = [c["kernel"] for c in certificates if not c["pass"]]
    summary = {"kernels": len(certificates), "passed": len(certificates) - len(failed),
               "failed": failed, "seed": args.seed,
               "backend": certificates[0]["backend"] if certificates else None,
               "written": [c["path"] for c in certificates if "path" in c]}
    if args.json:
        emit_json({"certificates": certificates, "summary": summary})
        return 1 if failed else 0
    out = out_console()
    out.print(certificates_table(certificates,
                                 f"certificates ({summary['backend']}, seed {args.seed})"))
    for cert in certificates:
        for note in cert.get("notes", []):
            out.print(f"  {cert['kernel']}: {escape(note)}")
        if not cert["pass"]:
            for line in failing_cases.lines(cert):
                out.print(f"  {escape(line)}", overflow="fold")
    out.print(f"{summary['passed']}/{summary['kernels']} kernels pass; "
              f"certificates written: {len(summary['written'])}")
    return 1 if failed else 0


def _format_rho(rho: Any) -> str:
    if rho is None:
        return "—"
    if rho in ("inf", float("inf")):
        return "∞"
    return f"{rho:.3g}" if isinstance(rho, (int, float)) else str(rho)


def certificates_table(certificates: list[dict], title: str) -> Table:
    """One row per certificate; kernel names and the verdict are never wrapped (the
    dtype list wraps), so the table fits 80 columns."""
    table = Table(title=title)
    table.add_column("kernel", no_wrap=True)
    table.add_column("backend", no_wrap=True)
    table.add_column("dtypes")
    table.add_column("max ρ", no_wrap=True)
    table.add_column("planted caught", no_wrap=True)
    table.add_column("pass", no_wrap=True)
    for cert in certificates:
        dtypes = ", ".join(d if isinstance(v, dict) and v.get("status") == "certified"
                           else f"{d} (skipped)" for d, v in cert.get("dtypes", {}).items())
        planted = cert.get("planted")
        caught = (f"{sum(bool(p.get('caught')) for p in planted.values())}/{len(planted)}"
                  if isinstance(planted, dict) and planted else "—")
        table.add_row(cert["kernel"], cert["backend"], dtypes, _format_rho(cert.get("rho")),
                      caught, "[green]pass[/]" if cert["pass"] else "[red]FAIL[/]")
    return table


def cmd_bench(args) -> int:
    """0 when every benchmark ran, 1 if one failed, 2 on bad input."""
    names = kernelnames.resolve(args.kernels)
    backend = api.resolve_backend(args.backend)
    results = []
    with Counter("benchmarking", len(names)) as progress:
        for name in names:
            try:
                results.append(api.bench(name, backend))
            except Exception as exc:  # one broken benchmark does not hide the others
                results.append({"kernel": name, "error": f"{type(exc).__name__}: {exc}"})
            progress.step(name)
    failed = [r["kernel"] for r in results if "error" in r]
    if args.json:
        emit_json({"benchmarks": results,
                   "summary": {"backend": backend, "kernels": len(results),
                               "failed": failed}})
    else:
        _print_bench(results)
    return 1 if failed else 0


def _fmt(value: Any, spec: str = ".3g") -> str:
    return "—" if value is None else format(value, spec)


def _print_bench(results: list[dict]) -> None:
    table = Table(title="benchmarks")
    table.add_column("kernel", no_wrap=True)
    for column in ("device", "shape", "kernel ms", "peer ms", "ref. ms", "× peer",
                   "of copy bw"):
        table.add_column(column)
    for r in results:
        if "error" in r:
            table.add_row(r["kernel"], "", "", f"[red]{escape(r['error'])}[/]", "", "", "",
                          "")
            continue
        fraction = r.get("fraction_of_copy_bandwidth")
        table.add_row(r["kernel"], r.get("device", ""), escape(str(r.get("shape", ""))),
                      _fmt(r.get("kernel_ms")), _fmt(r.get("peer_ms")),
                      _fmt(r.get("reference_ms")), _fmt(r.get("speedup_vs_peer")),
                      "—" if fraction is None else f"{fraction:.0%}")
    out = out_console()
    out.print(table)
    for note in {r.get("note") for r in results if r.get("note")}:
        out.print(escape(note))
