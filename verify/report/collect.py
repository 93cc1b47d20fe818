"""The report's data: one entry per law (its checked result with what the catalog says
about it) and one per certificate file (the JSON with its stale marks).

Nothing is checked or certified here: the law results come from the caller (``verify
all`` reuses its own), the certificates are read from their files, and the stale marks
come from the certifier's own hashing (``verify.certification.sources``).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Mapping

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
        return "(" + ", ".join(f"{k}={v}" for k, v in zip(labels, value)) + ")"
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
    return {"bindings": bindings, "lhs": str(cx.get("lhs")), "rhs": str(cx.get("rhs")),
            "gap": None if cx.get("gap") is None else str(cx["gap"]),
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
                     {"bindings": str(cx.get("bindings")), "lhs": str(cx.get("lhs")),
                      "rhs": str(cx.get("rhs"))}})
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
    document, or None), "error" (why it could not be read), "stale" (the certifier's
    reason, or None), "sources" (each hashed file with "current", "changed" or
    "missing")}. A missing directory has no certificates."""
    if directory is None or not Path(directory).is_dir():
        return []
    from verify.certification.sources import hash_sources, stale_certificates
    stale = {Path(s["path"]).name: s.get("reason") for s in stale_certificates(directory)}
    out = []
    used: set[str] = set()
    for path in sorted(Path(directory).glob("*.json")):
        page = _unique(f"certificates/{slug(path.stem)}.html", used)
        entry: dict[str, Any] = {"file": path.name, "page": page, "cert": None,
                                 "error": None, "stale": stale.get(path.name),
                                 "sources": []}
        try:
            cert = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(cert, dict) or "kernel" not in cert:
                raise ValueError("not a certificate (no kernel)")
        except (OSError, ValueError) as exc:
            entry["error"] = f"{type(exc).__name__}: {exc}"
            out.append(entry)
            continue
        entry["cert"] = cert
        entry["sources"] = _source_marks(cert.get("sources"), hash_sources)
        out.append(entry)
    return out


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
        now = hash_sources([str(f["path"])])["files"][0]["sha256"]
        state = ("missing" if now is None else
                 "current" if now == f.get("sha256") else "changed")
        rows.append({"path": str(f["path"]), "sha256": str(f.get("sha256")), "state": state})
    return rows
