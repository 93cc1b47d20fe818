"""Write the site: every page is rendered in memory first, then each file is written
through a temporary file and a rename, so a reader never sees half a page and a
failure while rendering leaves the directory as it was."""
from __future__ import annotations

import dataclasses
import datetime
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

from verify.report import collect, measurements, pages
from verify.report.certificate import view
from verify.report.plots import Plotter


@dataclasses.dataclass
class SiteSummary:
    """What was written: the directory, the index, counts, the seconds it took."""
    out: str
    index: str
    files: list[str]
    laws: int
    certificates: int
    unreadable: list[str]
    stale: list[str]
    plots: int
    seconds: float

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def write_site(out: str | os.PathLike, laws: Iterable[Mapping[str, Any]],
               papers: Iterable[Mapping[str, Any]] | None = None,
               certificates: str | os.PathLike | None = None) -> SiteSummary:
    """The report for ``laws`` (law result documents, as ``verify laws --json`` gives
    them), ``papers`` (checked papers, as ``verify papers --json``; None shows the claims
    unchecked) and every certificate file in the directory ``certificates``."""
    started = time.perf_counter()
    paper_results = list(papers or ())
    entries = collect.law_entries(laws, paper_results)
    law_ids = {e["id"] for e in entries}
    page_of = {e["id"]: e["page"] for e in entries}
    certs = collect.load_certificates(certificates)
    plotter = Plotter()
    files: dict[str, str] = {"style.css": pages.stylesheet(),
                             ".lawcheck-report": "written by python -m verify report\n"}
    by_kernel: dict[str, list] = {}
    for c in certs:
        if c["cert"] is None:
            files[c["page"]] = pages.unreadable(c)
            continue
        by_kernel.setdefault(str(c["cert"].get("kernel")), []).append(c)
        files[c["page"]] = pages.certificate(view(c, law_ids, plotter))
    for e in entries:
        files[e["page"]] = pages.law(e, by_kernel)
    paper_docs = collect.paper_entries(paper_results)
    for p in paper_docs:
        for claim in p["claims"]:
            claim["laws"] = [{"id": i, "page": page_of.get(i)} for i in claim["laws"]]
    files["papers.html"] = pages.papers(paper_docs)
    records = measurements.load(certificates)
    if records is not None:
        files["gpu.html"] = pages.gpu(records, _measurement_plots(records, plotter),
                                      str(certificates))
    from verify.decide.check import summary
    laws_summary = summary(entries)
    readable = [c for c in certs if c["cert"] is not None]
    overview = {
        "laws": laws_summary,
        "certificates": {"total": len(readable),
                         "passed": sum(bool(c["cert"].get("pass")) for c in readable),
                         "stale": sum(bool(c["stale"]) for c in readable),
                         "directory": str(certificates) if certificates else "(none given)"},
        "papers": {"claims": sum(len(p["claims"]) for p in paper_docs)},
        "gpu": None if records is None else {
            "device": (records["instructions"] or records["bench"] or {}).get("device", "")},
    }
    generated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    files["index.html"] = pages.render(
        "index.html", "", summary=overview, groups=collect.by_property(entries),
        certificates=certs, generated=generated, pages=page_of, title=None)
    target = Path(out)
    for rel, text in files.items():
        _write(target / rel, text)
    _remove_old_pages(target, set(files))
    return SiteSummary(
        out=str(target), index=str(target / "index.html"), files=sorted(files),
        laws=len(entries), certificates=len(readable),
        unreadable=[c["file"] for c in certs if c["cert"] is None],
        stale=[c["file"] for c in readable if c["stale"]], plots=plotter.count,
        seconds=round(time.perf_counter() - started, 3))


def _measurement_plots(records: Mapping[str, Any], plotter: Plotter) -> dict:
    out: dict[str, str | None] = {"instructions": None, "speed": None}
    if records["instructions"]:
        out["instructions"] = plotter.ratio_bars(
            [(r["label"], r["ratio"]) for r in records["instructions"]["rows"]],
            "worst error / the figure the bounds assume (≤ 1 holds)", "instruction accuracy")
    if records["bench"]:
        out["speed"] = plotter.ranges(
            [(r["kernel"], *(r["speedup"] or (None, None))) for r in records["bench"]["rows"]],
            "× torch's own op (range over the runs; right of 1: faster)", "speed against torch")
    return out


def _remove_old_pages(target: Path, written: set[str]) -> None:
    """Pages of an earlier report in the same directory (a certificate since removed)
    would be listed nowhere and go stale: the report's own folders keep only its pages."""
    for folder in ("laws", "certificates"):
        for page in (target / folder).glob("*.html"):
            if f"{folder}/{page.name}" not in written:
                page.unlink()
    if "gpu.html" not in written and (target / "gpu.html").is_file():
        (target / "gpu.html").unlink()   # the certificates given have no GPU records


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
