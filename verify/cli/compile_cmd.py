"""``verify compile``: every kernel compiled for sm_90a/sm_100a, its instruction profile
and the GPU error model it supports."""
from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from verify.cli.output import emit_json, out_console
from verify import kernelnames
from verify.errors import BadInput


def _specs(targets: list[str]) -> list:
    import impls
    from verify.certification.isolate import load_spec
    names = targets or impls.kernel_names()
    specs = []
    for t in names:
        if t.endswith(".py") or ".py:" in t:
            from verify.api import _check_target_file
            _check_target_file(t)
            try:
                specs.append(load_spec(t, t))
            except Exception as exc:
                raise BadInput(f"{t}: could not load a KernelSpec: {exc}") from None
        else:
            specs.append(impls.load(kernelnames.resolve([t])[0]))
    return specs


def cmd_compile(args) -> int:
    """0 when every kernel compiles and its GPU model is backed by its instructions on
    every target asked for, 1 otherwise, 2 on bad input."""
    from verify.api import use_backend
    use_backend("interpreter")      # launches are observed in Triton's interpreter
    from verify import hardware
    targets = tuple(args.arch) if args.arch else tuple(hardware.TARGETS)
    docs = {}
    for spec in _specs(list(args.kernels)):
        docs[spec.name] = hardware.profile_for(spec, targets)
    ok = all(d[t]["ok"] for d in docs.values() for t in targets)
    if args.json:
        emit_json({"kernels": docs, "targets": list(targets), "ok": ok})
        return 0 if ok else 1
    out = out_console()
    for name, doc in docs.items():
        for t in targets:
            _print_target(out, name, t, doc[t])
    return 0 if ok else 1


def _print_target(out, name: str, target: str, t: dict) -> None:
    table = Table(title=f"{name} on {target}: {'model backed' if t['ok'] else 'REFUSED'}")
    for col in ("launch", "special instructions", "mma", "ftz", "narrowing", "regs/spill",
                "occupancy"):
        table.add_column(col)
    for e in t["launches"]:
        if "error" in e:
            table.add_row(escape(e["launch"]),
                          f"[red]does not compile[/]: {escape(e['error'][-300:])}",
                          "", "", "", "", "")
            continue
        special = ", ".join(f"{k}×{v['count']}" for k, v in e["instructions"].items())
        if "libdevice.logf" in e["operations"].get("log", []):
            special += ", logf (libdevice)"
        mma = ", ".join(f"{m['inputs']}→{m['accumulate']}" for m in e["mma"]) or "—"
        occ = e["occupancy"]
        table.add_row(escape(e["launch"]), escape(special or "—"), escape(mma),
                      escape(", ".join(e["ftz"]) or "—"),
                      escape(", ".join(e["narrowing"]) or "—"),
                      f"{e['registers']}/{e['spill_bytes']}",
                      f"{occ['occupancy']:.2f} ({occ['limited_by']})" if occ else "?")
    out.print(table)
    for op, c in t["constants"].items():
        out.print(f"  GPU bound: {op} = {c['instruction']}: {c['rel']:.3g} relative"
                  f"{' + %.3g absolute' % c['abs'] if c['abs'] else ''} ({escape(c['source'])}"
                  f"{', conservative' if c['conservative'] else ''})")
    for p in t["problems"]:
        out.print(f"  [red]refused[/]: {escape(p)}")
