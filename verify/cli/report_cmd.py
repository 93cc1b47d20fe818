"""``python -m verify report``: check the catalog and the papers, then write the HTML
report (``verify.report``) with the certificates of a directory; ``verify all
--report DIR`` calls :func:`write` with the results it already has."""
from __future__ import annotations

import time
from typing import Any

from pathlib import Path

from verify import api
from verify.cli.output import emit_json
from verify.cli.progress import Waiting
from verify.errors import BadInput

DEFAULT_CERTIFICATES = "certificates"
MARKER = ".lawcheck-report"     # written by verify.report.site into every site
FOOTER = "python -m verify report"


def check_site_dir(path: str, option: str = "--out") -> None:
    """``BadInput`` when ``path`` is a directory that holds files but no earlier report:
    writing the site there would overwrite its index.html and remove the .html files of
    its laws/ and certificates/ folders."""
    p = Path(path)
    if not p.is_dir() or not any(p.iterdir()) or (p / MARKER).is_file():
        return
    index = p / "index.html"
    try:
        if index.is_file() and FOOTER in index.read_text(encoding="utf-8", errors="replace"):
            return      # a report written before the marker existed
    except OSError:
        pass
    raise BadInput(f"{option} {path}: a directory that holds other files, not an earlier "
                   "report; choose a new or empty directory")


def write(out: str, laws: list[dict], papers: list[dict] | None, certificates: str | None
          ) -> Any:
    """The site written to ``out``; its summary (``verify.report.SiteSummary``), whose
    seconds count loading the report's modules (matplotlib, jinja2) too."""
    started = time.perf_counter()
    with Waiting(f"writing the report to {out}"):
        from verify.report import write_site
        summary = write_site(out, laws, papers, certificates)
    summary.seconds = round(time.perf_counter() - started, 3)
    return summary


def cmd_report(args) -> int:
    from verify.cli.lawrun import run_laws
    from verify.results import LawResult
    started = time.perf_counter()
    certificates = args.certificates or DEFAULT_CERTIFICATES
    results = run_laws(args, [row["id"] for row in api.catalog()["laws"]])
    with Waiting("checking the papers' claims"):
        papers = api.check_papers({r["id"]: r for r in results})
    summary = write(args.out, results, papers, certificates)
    laws = api.summarize([LawResult(r) for r in results])
    ok = not laws["disagree"]
    if args.json:
        emit_json({"report": summary.to_json(), "laws": laws, "ok": ok,
                   "seconds": round(time.perf_counter() - started, 3)})
    else:
        print(describe(summary, certificates))
        if laws["disagree"]:
            print(f"disagree: {', '.join(laws['disagree'])}")
    return 0 if ok else 1


def describe(summary: Any, certificates: str | None) -> str:
    """One line: what the report holds, where to open it, how long writing took."""
    certs = f"{summary.certificates} certificates from {certificates}"
    if summary.stale:
        certs += f" ({len(summary.stale)} stale)"
    if summary.unreadable:
        certs += f", {len(summary.unreadable)} unreadable files"
    return (f"report: {summary.laws} laws, {certs}, {summary.plots} plots; open "
            f"{summary.index} (written in {summary.seconds:.1f} s)")
