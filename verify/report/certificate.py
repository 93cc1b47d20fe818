"""What a certificate page shows, read from the certificate's JSON: the summary, the
tables and the data of each figure. Every field is read with a default, so a user's
certificate (from ``bind`` or the pytest plugin) with fewer fields still renders; keys
this module does not know are shown as a generic table rather than dropped."""
from __future__ import annotations

import math
from typing import Any, Mapping

from verify.report.collect import law_page
from verify.report.plots import Plotter, _number

KNOWN = {"kernel", "summary", "laws", "backend", "device", "dtypes", "algorithm", "bound",
         "max_error", "rho", "expected", "naive_ratio", "power", "tightness",
         "backend_exactness", "cases", "oracle", "seed", "versions", "source_hash",
         "sources", "pass", "notes", "per_dtype", "elapsed_s", "merge_trees", "planted",
         "compiled"}


def fmt(x: Any) -> str:
    """A number as the report shows it: 4 significant digits, ∞ for infinity."""
    v = _number(x)
    if v is None:
        return "—" if x is None else str(x)
    if v == math.inf:
        return "∞"
    if v == 0:
        return "0"
    return f"{v:.4g}"


def _dict(x: Any) -> dict:
    return x if isinstance(x, dict) else {}


def view(entry: Mapping, law_ids: set[str], plotter: Plotter) -> dict:
    """The page's context for one loaded certificate (``collect.load_certificates``)."""
    c = entry["cert"]
    per_dtype = _dict(c.get("per_dtype"))
    return {
        "file": entry["file"], "stale": entry["stale"], "sources": entry["sources"],
        "kernel": str(c.get("kernel")), "summary": c.get("summary") or "",
        "backend": c.get("backend"), "device": _dict(c.get("device")).get("text")
        or c.get("device"), "passed": bool(c.get("pass")),
        "rho": fmt(c.get("rho")), "max_error": fmt(c.get("max_error")),
        "naive_ratio": fmt(c.get("naive_ratio")), "seed": c.get("seed"),
        "elapsed": fmt(c.get("elapsed_s")), "oracle": c.get("oracle"),
        "bound": _dict(c.get("bound")), "notes": [str(n) for n in c.get("notes") or ()],
        "laws": [{"id": k, "verdict": _dict(v).get("verdict"), "ok": _dict(v).get("ok"),
                  "page": law_page(k) if k in law_ids else None}
                 for k, v in _dict(c.get("laws")).items()],
        "dtypes": _dtypes(c, per_dtype),
        "cases": _dict(c.get("cases")),
        "planted": [{"name": k, "caught": _dict(v).get("caught"),
                     "rho": fmt(_dict(v).get("rho")), "detail": _dict(v).get("problem")}
                    for k, v in _dict(c.get("planted")).items()],
        "trees": _trees(_dict(c.get("merge_trees"))),
        "compiled": c.get("compiled"),
        "algorithm": c.get("algorithm"),
        "versions": _dict(c.get("versions")),
        "source_hash": c.get("source_hash"),
        "extra": {k: v for k, v in c.items() if k not in KNOWN},
        "backend_exactness": c.get("backend_exactness"),
        "plots": _plots(c, per_dtype, plotter),
    }


def _dtypes(c: Mapping, per_dtype: Mapping) -> list[dict]:
    rows = []
    tight = _dict(c.get("tightness"))
    for name, info in _dict(c.get("dtypes")).items():
        info = _dict(info)
        r = _dict(per_dtype.get(name))
        t = _dict(tight.get(name))
        expected = _dict(r.get("expected"))
        rows.append({"dtype": name, "status": info.get("status", "certified"),
                     "reason": info.get("reason"),
                     "formats": ", ".join(f"{k} {v}" for k, v in info.items()
                                          if k not in ("status", "reason")),
                     "passed": r.get("pass"), "rho": fmt(r.get("rho")),
                     "max_error": fmt(r.get("max_error")), "max_bound": fmt(r.get("max_bound")),
                     "naive_ratio": fmt(r.get("naive_ratio")),
                     "expected": fmt(expected.get("level")),
                     "worst_case": t.get("case"), "worst_output": t.get("output"),
                     "skipped_cases": len(r.get("skipped_cases") or ())})
    return rows


def _trees(mt: Mapping) -> dict | None:
    if not mt:
        return None
    fams = []
    for name, f in _dict(mt.get("families")).items():
        f = _dict(f)
        fams.append({"family": name, "passed": f.get("pass"), "format": f.get("format"),
                     "trees": ", ".join(map(str, f.get("trees") or ())),
                     "lengths": ", ".join(map(str, f.get("lengths") or ())),
                     "checked": f.get("checked"), "unchecked": f.get("unchecked"),
                     "worst_rho": fmt(f.get("worst_rho")),
                     "failures": f.get("failure_count", len(f.get("failures") or ())),
                     "first_failures": [str(x) for x in (f.get("failures") or ())[:5]]})
    return {"passed": mt.get("pass"), "note": mt.get("note"), "families": fams}


def _case_records(per_dtype: Mapping) -> dict[str, list[dict]]:
    return {d: [x for x in _dict(r).get("cases") or () if isinstance(x, dict)]
            for d, r in per_dtype.items()}


def _sample(out: Mapping) -> list[tuple[float, float]] | None:
    """The output's per-element (bound, error) sample, None when it has none or it is
    malformed (not two lists of the same length); unreadable values are skipped."""
    sample = _dict(out.get("sample"))
    bounds, errors = sample.get("bound"), sample.get("error")
    if not isinstance(bounds, list) or not isinstance(errors, list) \
            or len(bounds) != len(errors):
        return None
    pairs = [(_number(b), _number(e)) for b, e in zip(bounds, errors)]
    return [(b, e) for b, e in pairs if b is not None and e is not None]


def _error_points(records: Mapping[str, list[dict]]) -> tuple[list, bool]:
    """(dtype, bound, error) of every sampled element, or of each case's largest error
    and bound for an output with no sample (certificates written before samples);
    and whether every point is an element's."""
    points, per_element = [], True
    for dtype, cases in records.items():
        for case in cases:
            for out in _dict(case.get("outputs")).values():
                out = _dict(out)
                pairs = _sample(out)
                if pairs is None:
                    b, e = _number(out.get("max_bound")), _number(out.get("max_error"))
                    placed = b is not None and e is not None and 0 < b < math.inf
                    pairs = [(b, e)] if placed else []
                    per_element = per_element and not pairs
                points.extend((dtype, b, e) for b, e in pairs)
    return points, per_element


def _plots(c: Mapping, per_dtype: Mapping, plotter: Plotter) -> dict:
    records = _case_records(per_dtype)
    points, per_element = _error_points(records)
    names: list[str] = []
    for cases in records.values():
        for case in cases:
            if str(case.get("name")) not in names:
                names.append(str(case.get("name")))
    series = {d: [next((x.get("rho") for x in cases if str(x.get("name")) == n), None)
                  for n in names] for d, cases in records.items()}
    plots = {"error": plotter.error_vs_bound(points, per_element),
             "error_per_element": per_element,
             "cases": plotter.rho_per_row(names, series, "ρ = max error / bound",
                                          "ρ per case"),
             "classes": _class_plot(records, plotter)}
    rows = []
    for dtype, p in _dict(c.get("power")).items():
        for output, r in _dict(_dict(p).get("rho")).items():
            rows.append((f"{dtype} · {output}", _dict(r)))
    plots["power"] = plotter.power(rows)
    return plots


def _class_plot(records: Mapping[str, list[dict]], plotter: Plotter) -> str | None:
    """ρ per case class, when the case records name their classes."""
    worst: dict[str, dict[str, float]] = {}
    for dtype, cases in records.items():
        for case in cases:
            rho = _number(case.get("rho"))
            classes = case.get("classes")
            for cls in classes if isinstance(classes, list) else ():
                if rho is not None:
                    d = worst.setdefault(str(cls), {})
                    d[dtype] = max(d.get(dtype, 0.0), rho)
    if not worst:
        return None
    classes = sorted(worst)
    series = {d: [worst[k].get(d) for k in classes] for d in records}
    return plotter.rho_per_row(classes, series, "largest ρ of the class's cases",
                               "ρ per case class")
