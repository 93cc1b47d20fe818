"""The report's data: one entry per law (its checked result with what the catalog says
about it) and one per certificate file (the JSON with its stale marks).

Nothing is checked or certified here: the law results come from the caller (``verify
all`` reuses its own), the certificates are read from their files, and the stale marks
come from the certifier's own hashing (``verify.certification.sources``), applied to
each document as read here (a file is read once, and at most 32 MiB of it).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable, Mapping

from verify import jsonio

PROPERTY_ORDER = ("associativity", "separability", "locality", "sparsity", "redundancy",
                  "symmetry")
FORMATS = ("float16", "bfloat16", "float32", "float64")


# --------------------------------------------------------------------------- names
def slug(text: str) -> str:
    """A file name made of letters, digits, dots, dashes and underscores only."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", text).strip(".") or "_"


def law_page(law_id: str) -> str:
    return f"laws/{slug(law_id)}.html"


def claim_anchor(paper_id: str, index: int) -> str:
    return f"claim-{slug(paper_id)}-{index}"


# --------------------------------------------------------------------------- laws
def show_value(value: Any, labels: tuple = ()) -> str:
    """A binding as `verify law` shows it: labelled tuple components when known."""
    if isinstance(value, list) and labels and len(labels) == len(value):
        return "(" + ", ".join(f"{k}={plain(v)}" for k, v in zip(labels, value)) + ")"
    return plain(value)


def plain(value: Any) -> str:
    """A value of a JSON result as text: lists in brackets, numbers carried as strings
    (high-precision decimals) without quotes."""
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    return str(value)


def _counterexample(law: Any, cx: Mapping | None) -> dict | None:
    if not cx:
        return None
    labels: dict[str, tuple] = {}
    if law is not None and law.method != "free-monoid":
        try:
            labels = {v.name: v.labels for v in law.vars_for(cx.get("instance", {}))}
        except Exception:  # labels are a nicety; the values are shown either way
            labels = {}
    bindings = [(name, show_value(v, labels.get(name, ())))
                for name, v in (cx.get("bindings") or {}).items()]
    return {"bindings": bindings, "lhs": plain(cx.get("lhs")), "rhs": plain(cx.get("rhs")),
            "gap": None if cx.get("gap") is None else plain(cx["gap"]),
            "instance": dict(cx.get("instance") or {})}


def _floats(floats: Mapping | None) -> list[dict]:
    rows = []
    for fmt, v in (floats or {}).items():
        err = v.get("max_relative_error_in_u") or {}
        worst = None
        if isinstance(err.get("lhs"), (int, float)) and isinstance(err.get("rhs"), (int, float)):
            worst = f"{err['lhs']:.3g}u / {err['rhs']:.3g}u"
        cx = v.get("counterexample")
        rows.append({"format": fmt, "exact": v.get("exact"),
                     "how": v.get("method") or v.get("note") or "",
                     "worst": worst,
                     "counterexample": None if not cx else
                     {"bindings": str(cx.get("bindings")), "lhs": plain(cx.get("lhs")),
                      "rhs": plain(cx.get("rhs"))}})
    return rows


def float_marks(floats: Mapping | None) -> list[dict]:
    """One mark per format, in a fixed order: exact, not exact, undecided or not run."""
    marks = []
    for fmt in FORMATS:
        v = (floats or {}).get(fmt)
        state = "none" if v is None else {True: "exact", False: "inexact"}.get(
            v.get("exact"), "undecided")
        marks.append({"format": fmt, "state": state})
    return marks


def _claims(law_id: str, paper_results: Iterable[Mapping] | None) -> list[dict]:
    import papers
    verdicts: dict[tuple[str, str], str] = {}
    for p in paper_results or ():
        for c in p.get("claims", ()):
            verdicts[(p["id"], c["text"])] = c.get("verdict")
    out = []
    for c in papers.claims_for_law(law_id):
        claims = papers.PAPERS[c["paper"]].claims
        index = next((i for i, k in enumerate(claims) if k.text == c["text"]), 0)
        out.append({**c, "anchor": claim_anchor(c["paper"], index),
                    "verdict": verdicts.get((c["paper"], c["text"]))})
    return out


def law_entries(results: Iterable[Mapping], paper_results: Iterable[Mapping] | None = None
                ) -> list[dict]:
    """Each law's result document with the catalog's text about it: what it licenses,
    its notes, near misses (with their verdicts where they were checked), the law an
    anti-law teaches, the paper claims that use it, its kernels."""
    from laws import REGISTRY
    from verify.api import kernel_sites
    from verify.teaching.explain import anti_laws
    results = list(results)
    paper_results = list(paper_results or ())
    by_id = {r["id"]: r for r in results}
    entries = []
    for r in results:
        law = REGISTRY[r["id"]] if r["id"] in REGISTRY else None
        near = [] if law is None else [
            {"id": a.id, "page": law_page(a.id), "statement": a.statement,
             "verdict": (by_id.get(a.id) or {}).get("verdict")} for a in anti_laws(law)]
        teaches = getattr(law, "teaches", None)
        entries.append({
            **r,
            "page": law_page(r["id"]),
            "family": r["id"].split(".")[0],
            "licenses": r.get("licenses") or getattr(law, "licenses", ""),
            "doc": getattr(law, "doc", ""),
            "bounded_by": getattr(law, "bounded_by", None),
            "kernels": list(getattr(law, "kernels", ())),
            "kernel_sites": r.get("kernel_sites") or ([] if law is None else kernel_sites(law)),
            "teaches": None if not teaches else {
                "id": teaches, "page": law_page(teaches) if teaches in by_id else None},
            "near_misses": near,
            "claims": _claims(r["id"], paper_results),
            "cx": _counterexample(law, r.get("counterexample")),
            "float_rows": _floats(r.get("floats")),
            "float_marks": float_marks(r.get("floats")),
        })
    order = {p: i for i, p in enumerate(PROPERTY_ORDER)}
    entries.sort(key=lambda e: (order.get(e["property"], len(order)), e["id"]))
    return entries


def by_property(entries: Iterable[Mapping]) -> list[tuple[str, list]]:
    groups: dict[str, list] = {}
    for e in entries:
        groups.setdefault(e["property"], []).append(e)
    return list(groups.items())


def paper_entries(paper_results: Iterable[Mapping] | None) -> list[dict]:
    """Every paper with its claims; verdicts where the papers were checked."""
    import papers
    checked = {p["id"]: p for p in paper_results or ()}
    out = []
    for pid, paper in papers.PAPERS.items():
        done = {c["text"]: c for c in checked.get(pid, {}).get("claims", ())}
        claims = []
        for i, c in enumerate(paper.claims):
            result = done.get(c.text, {})
            evidence = str(result.get("evidence") or "").strip()
            laws = list(getattr(c, "laws", ())) + list(getattr(c, "related", ()))
            claims.append({"anchor": claim_anchor(pid, i), "text": c.text, "where": c.where,
                           "kind": c.kind, "verdict": result.get("verdict"),
                           "reason": evidence.splitlines()[0] if evidence else "",
                           "laws": laws})
        out.append({"id": pid, "anchor": f"paper-{slug(pid)}", "title": paper.title,
                    "authors": paper.authors, "year": paper.year, "venue": paper.venue,
                    "claims": claims})
    return out


# --------------------------------------------------------------------------- certificates
def load_certificates(directory: str | Path | None) -> list[dict]:
    """Every ``*.json`` in ``directory``, sorted by name: {"file", "page", "cert" (the
    document, or None), "error" (why it could not be read), "stale" (why the recorded
    source hash no longer matches, or None), "sources" (each hashed file with "current",
    "changed" or "missing")}. A missing directory has no certificates; a file that is
    not JSON, nested too deeply or larger than ``MAX_CERTIFICATE_BYTES`` is listed
    with its error."""
    if directory is None or not Path(directory).is_dir():
        return []
    from verify.certification.sources import hash_sources
    from verify.records import is_measurement_record
    out = []
    used: set[str] = set()
    for path in sorted(Path(directory).glob("*.json")):
        if is_measurement_record(path):
            continue
        page = _unique(f"certificates/{slug(path.stem)}.html", used)
        entry: dict[str, Any] = {"file": path.name, "page": page, "cert": None,
                                 "error": None, "stale": None, "sources": []}
        try:
            cert = _read_certificate(path)
        except (OSError, ValueError, RecursionError) as exc:
            entry["error"] = (f"{type(exc).__name__}: nested too deeply to read"
                              if isinstance(exc, RecursionError)
                              else f"{type(exc).__name__}: {exc}")
            out.append(entry)
            continue
        entry["cert"] = cert
        entry["sources"] = _source_marks(cert.get("sources"), hash_sources)
        entry["stale"] = _stale_reason(cert, entry["sources"], hash_sources)
        out.append(entry)
    return out


MAX_CERTIFICATE_BYTES = jsonio.MAX_DOCUMENT_BYTES


def _read_certificate(path: Path) -> dict:
    cert = jsonio.read_document(path, MAX_CERTIFICATE_BYTES)
    if not isinstance(cert, dict) or "kernel" not in cert:
        raise ValueError("not a certificate (no kernel)")
    return cert


def _stale_reason(cert: dict, marks: list[dict], hash_sources: Any) -> str | None:
    """Why ``cert`` no longer matches the files it names (the certifier's reasons, as
    ``verify.certification.sources.stale_certificates`` words them), or None."""
    recorded, files = cert.get("source_hash"), cert.get("sources")
    if not isinstance(recorded, str) or not isinstance(files, list) or not all(
            isinstance(f, dict) and "path" in f for f in files):
        return "unreadable certificate (no recorded source hash)"
    odd = [m["path"] for m in marks if m["state"] == "not a file"]
    if odd:
        return "not a file: " + ", ".join(odd)
    if hash_sources([str(f["path"]) for f in files])["sha256"] == recorded:
        return None
    parts = []
    changed = [m["path"] for m in marks if m["state"] == "changed"]
    missing = [m["path"] for m in marks if m["state"] == "missing"]
    if changed:
        parts.append("changed: " + ", ".join(changed))
    if missing:
        parts.append("missing: " + ", ".join(missing))
    return "; ".join(parts) or "source hash differs"


def _unique(page: str, used: set[str]) -> str:
    base, n = page, 1
    while page in used:
        n += 1
        page = base.replace(".html", f"-{n}.html")
    used.add(page)
    return page


def _source_marks(sources: Any, hash_sources: Any) -> list[dict]:
    if not isinstance(sources, list):
        return []
    rows = []
    for f in sources:
        if not isinstance(f, dict) or "path" not in f:
            continue
        if not _regular_or_absent(str(f["path"])):
            state = "not a file"   # a device or a fifo: reading it might never end
        else:
            now = hash_sources([str(f["path"])])["files"][0]["sha256"]
            state = ("missing" if now is None else
                     "current" if now == f.get("sha256") else "changed")
        rows.append({"path": str(f["path"]), "sha256": str(f.get("sha256")), "state": state})
    return rows


def _regular_or_absent(path: str) -> bool:
    """Whether hashing ``path`` (relative to the repository, as the certifier resolves
    it) reads a plain file or nothing."""
    from verify.certification.sources import REPO_ROOT, regular_or_absent
    return regular_or_absent(path, REPO_ROOT)
