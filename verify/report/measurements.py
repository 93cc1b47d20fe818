"""The GPU measurement records kept beside the certificates (``verify/records.py``),
read into what the report's ``gpu.html`` shows: the instructions' accuracy against the
table the bounds use, the benchmarks against torch (every run found, as medians and
ranges) and the cross-check of the code the GPU ran against the offline compilations.

A record is data from another machine: one that cannot be read, or whose content has
not the expected shape, is listed with its error and the rest is shown; every value
reaches the page as text (the templates escape it)."""
from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

from verify import jsonio
from verify.records import is_measurement_record
from verify.report.plots import _number


def _text(x: Any) -> str:
    return "" if x is None else str(x)


def _instructions(doc: Any) -> dict:
    """Rows of the instruction record: operation, instructions, inputs, the worst error
    (relative, in u = 2⁻²⁴, or over |A||B| for a dot), the ratio to the table's or the
    model's figure, and whether it holds."""
    if not isinstance(doc, dict) or not isinstance(doc.get("measurements"), list):
        raise ValueError("not an instruction record (no list of measurements)")
    rows = []
    for m in doc["measurements"]:
        if not isinstance(m, dict):
            raise ValueError("a measurement is not an object")
        dot = m.get("operation") == "dot"
        ratio = _number(m.get("max_ratio_to_model" if dot else "max_ratio_to_table"))
        cases = m.get("cases") if isinstance(m.get("cases"), list) else []
        worst = max((_number(c.get("max_error_over_abs_product")) or 0.0
                     for c in cases if isinstance(c, dict)), default=None)
        table = m.get("table") if isinstance(m.get("table"), dict) else {}
        rows.append({
            "label": (f"dot {_text(m.get('dtype'))} {_text(m.get('input_precision'))}"
                      if dot else _text(m.get("operation"))),
            "instructions": ", ".join(map(str, m.get("measured_instructions") or [])) or "—",
            "inputs": _text(m.get("inputs") or (f"{len(cases)} cases" if dot else "")),
            "count": _number(m.get("inputs_measured")),
            "error": (f"{worst:.3g} of |A||B|" if dot and worst is not None else
                      f"{_number(m.get('max_relative_error_in_u')) or 0:.3g}u"),
            "figure": _text(m.get("model") if dot else table.get("stated")),
            "ratio": ratio, "holds": bool(m.get("holds"))})
    return {"device": _text(doc.get("device")), "triton": _text(doc.get("triton")),
            "torch": _text(doc.get("torch")), "reference": _text(doc.get("reference")),
            "holds": bool(doc.get("holds")), "rows": rows}


def _bench(runs: list[tuple[str, Any]]) -> dict:
    """One row per kernel over every run: median kernel and torch times, the range of
    the ratio and of the fraction of copy bandwidth."""
    per_kernel: dict[str, dict] = {}
    device, copy = "", []
    for _, doc in runs:
        if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
            raise ValueError("not a benchmark record (no list of benchmarks)")
        for b in doc["benchmarks"]:
            if not isinstance(b, dict) or "kernel" not in b:
                raise ValueError("a benchmark is not an object with a kernel")
            row = per_kernel.setdefault(str(b["kernel"]), {
                "kernel": str(b["kernel"]), "shape": _text(b.get("shape")),
                "kernel_ms": [], "peer_ms": [], "speedup": [], "fraction": [], "error": ""})
            device = device or _text(b.get("device"))
            if b.get("error"):
                row["error"] = _text(b["error"])
            for key, field in (("kernel_ms", "kernel_ms"), ("peer_ms", "peer_ms"),
                               ("speedup", "speedup_vs_peer"),
                               ("fraction", "fraction_of_copy_bandwidth")):
                v = _number(b.get(field))
                if v is not None:
                    row[key].append(v)
            bw = _number(b.get("copy_bandwidth_gbs"))
            if bw is not None:
                copy.append(bw)
    def median(values: list) -> float | None:
        return statistics.median(values) if values else None

    def span(values: list) -> tuple[float, float] | None:
        return (min(values), max(values)) if values else None

    rows = [{**{k: row[k] for k in ("kernel", "shape", "error")},
             "kernel_ms": median(row["kernel_ms"]), "peer_ms": median(row["peer_ms"]),
             "speedup": span(row["speedup"]), "fraction": span(row["fraction"])}
            for row in per_kernel.values()]
    return {"runs": len(runs), "files": [name for name, _ in runs], "device": device,
            "copy_gbs": (min(copy), max(copy)) if copy else None, "rows": rows}


def _crosscheck(doc: Any) -> dict:
    if not isinstance(doc, dict) or not isinstance(doc.get("kernels"), dict):
        raise ValueError("not a cross-check record (no kernels)")
    kernels = []
    for name, k in doc["kernels"].items():
        if not isinstance(k, dict):
            raise ValueError("a kernel entry is not an object")
        kernels.append({"kernel": str(name), "device": _number(k.get("device")),
                        "identical": _number(k.get("identical")),
                        "same_profile": _number(k.get("same_profile")),
                        "different": len(k.get("different") or [])})
    return {"ok": bool(doc.get("ok")), "ptx_files": _number(doc.get("ptx_files")),
            "same_profile": _number(doc.get("same_profile")),
            "identical": _number(doc.get("identical")),
            "scratch": _number(doc.get("scratch_copies_left_out")), "kernels": kernels}


def load(directory: str | os.PathLike | None) -> dict | None:
    """The view of every measurement record in ``directory``; None when it has none."""
    if directory is None or not Path(directory).is_dir():
        return None
    files = [p for p in sorted(Path(directory).glob("*.json")) if is_measurement_record(p)]
    if not files:
        return None
    view: dict[str, Any] = {"instructions": None, "bench": None, "crosscheck": None,
                            "errors": [], "files": [p.name for p in files]}
    benches = []
    for path in files:
        kind = path.name.split(".")[0]
        try:
            doc = jsonio.read_document(path)
            if kind == "bench":
                _bench([(path.name, doc)])        # its shape checked on its own
                benches.append((path.name, doc))
            elif kind == "instructions":
                view["instructions"] = _instructions(doc)
            else:
                view["crosscheck"] = _crosscheck(doc)
        except (OSError, ValueError, RecursionError) as exc:
            view["errors"].append({"file": path.name, "error": (
                "nested too deeply to read" if isinstance(exc, RecursionError)
                else f"{type(exc).__name__}: {exc}")})
    if benches:
        view["bench"] = _bench(benches)
    return view
