"""The certificate document: the only code that writes its keys.

``build`` makes the document of one certification (what was certified, on what, the
figures, the hashed sources, the merge trees) with ``pass`` as the pipeline decided
it; the other functions add what later stages learn — the planted bugs (one shape:
name → {"caught", "rho"} and "crashed" when running the bug killed the process), a
and each can only turn ``pass`` to False, with a note saying why (``_fail``); a
binding's bound flags and audited combines (``add_binding_records``) and the observed
block schedule (``add_schedule``) are only recorded.
``failed`` is the document of a kernel that produced none; ``write`` writes a document
atomically and records where.
"""
from __future__ import annotations

import inspect
import os
import time
from pathlib import Path
from typing import Any, Mapping

from verify.certification import contract, fidelity
from verify.certification.binding import Binding
from verify.certification.environment import device_description, normalize_backend, versions
from verify.certification.naming import sanitized
from verify.certification.sources import hash_sources, source_files
from verify.jsonio import write_atomic


def build(spec, backend: str, seed: int, cases: list, laws: dict, passed: bool,
          notes: list[str], per_dtype: dict, dtype_info: dict, formula: Any,
          oracle_meta: dict, started: float, covered: dict, trees: dict) -> dict:
    """The certificate: what was certified, on what, the figures, the hashed sources.
    ``cases.coverage`` lists the classes the cases cover, ``cases.contract_classes`` those
    the kernel's contract requires and ``cases.missing_contract_classes`` the required
    ones no case covers (contract.py); ``tightness`` the worst ρ per dtype and where;
    ``backend_exactness`` what the backend computes exactly or more precisely than a
    GPU (fidelity.py)."""
    files = source_files(spec)
    hashed = hash_sources(files)
    rhos = [r["rho"] for r in per_dtype.values()]
    errors = [r["max_error"] for r in per_dtype.values() if r["max_error"] is not None]
    bounds = [r["max_bound"] for r in per_dtype.values() if r["max_bound"] is not None]
    ratios = [r["naive_ratio"] for r in per_dtype.values() if r["naive_ratio"] is not None]
    return {
        "kernel": spec.name,
        "summary": spec.summary,
        "laws": laws,
        "backend": backend,
        "device": device_description(backend),
        "dtypes": dtype_info,
        "algorithm": spec.bounding.algorithm(backend),
        "bound": {"formula": formula or _doc(spec.bounding.bound),
                  "kind": _bound_kind(spec, list(per_dtype)),
                  "max": max(bounds) if bounds else None},
        "max_error": max(errors) if errors else None,
        "rho": max(rhos) if rhos else None,
        "expected": {d: r["expected"] for d, r in per_dtype.items()},
        "naive_ratio": max(ratios) if ratios else None,
        "power": {d: r["power"] for d, r in per_dtype.items()},
        "tightness": contract.tightness(per_dtype),
        "backend_exactness": fidelity.backend_exactness(spec, backend, dtype_info),
        "cases": {"count": len(cases), "names": [c.name for c in cases],
                  "coverage": covered["covered"],
                  "contract_classes": covered["required"],
                  "missing_contract_classes": covered["missing"]},
        "oracle": oracle_meta.get("oracle", oracle_meta) or None,
        "seed": seed,
        "versions": versions(),
        "source_hash": hashed["sha256"],
        "sources": hashed["files"],
        "pass": passed,
        "notes": notes,
        "per_dtype": per_dtype,
        "elapsed_s": round(time.perf_counter() - started, 3),
        "merge_trees": trees,
    }


def _bound_kind(spec, dtypes: list[str]) -> str | dict[str, str]:
    """Which bound the certificate used: derived by the running error analysis of a
    binding, or written by hand in the kernel's module; per dtype when a binding uses
    its kernel's hand bound for some dtypes only. A bound function that extends a
    binding's bound names it in its ``binding`` attribute."""
    binding = getattr(spec.bounding.bound, "__self__", None)
    if isinstance(binding, Binding):
        kinds = {d: binding.kind(d) for d in dtypes or spec.dtypes}
        first = next(iter(kinds.values()))
        return first if all(k == first for k in kinds.values()) else kinds
    return f"hand-derived ({spec.name}'s own bound function)"


def _doc(fn) -> str | None:
    doc = inspect.getdoc(fn)
    return doc.split("\n\n")[0] if doc else None


# --------------------------------------------------------------------------- later stages
def _fail(cert: dict, note: str) -> None:
    cert["pass"] = False
    cert.setdefault("notes", []).append(note)


def caught(result: Mapping[str, Any]) -> dict:
    """A planted bug's outcome from the certificate of the bug's variant."""
    return {"caught": not result["pass"], "rho": result["rho"]}


def crashed(reason: str) -> dict:
    """A planted bug's outcome when running it killed the process: caught."""
    return {"caught": True, "rho": None, "crashed": reason}


def add_planted(cert: dict, outcomes: Mapping[str, dict]) -> None:
    """The ``planted`` section; a planted bug that passed fails the certificate."""
    cert["planted"] = dict(outcomes)
    escaped = [name for name, o in outcomes.items() if not o["caught"]]
    if escaped:
        _fail(cert, "planted bug(s) passed certification, so the bound or the cases are "
                    "too weak: " + ", ".join(escaped))


def add_binding_records(cert: dict, flags: Mapping[str, Any],
                        combines: Mapping[str, Any] | None) -> None:
    """A binding's bound flags (``bound_flags``) and audited combines (``combines``)."""
    cert["bound_flags"] = dict(flags)
    if combines is not None:
        cert["combines"] = combines["combines"]


def add_schedule(cert: dict, section: Mapping[str, Any]) -> None:
    """The ``schedule`` section: the launches a binding's wrapper was seen to make on the
    probes, the blocked reductions read from them, and the schedule classes its cases
    cover (schedule.py). It records; the schedule cases themselves pass or fail."""
    cert["schedule"] = dict(section)


def add_compiled(cert: dict, section: Mapping[str, Any], target: str | None) -> None:
    """The ``compiled`` section (verify/hardware); on a GPU whose target was compiled, a
    kernel whose declared error model assumes more accuracy than its instructions give
    (or that does not compile) fails, naming the operation."""
    cert["compiled"] = section
    if target and not section[target]["ok"]:
        _fail(cert, f"the GPU bound is not backed by the {target} code: "
                    + "; ".join(section[target]["problems"]))


def failed(name: str, backend: str, reason: str) -> dict:
    """A certificate for a kernel that produced none: pass False and the reason."""
    return {"kernel": name, "backend": backend, "pass": False, "rho": None,
            "dtypes": {}, "notes": [reason]}


# --------------------------------------------------------------------------- files
def filename(cert: Mapping[str, Any]) -> str:
    """``<kernel>.<backend>.json``, the kernel's name made safe as a file name."""
    return f"{sanitized(str(cert['kernel']))}.{normalize_backend(cert['backend'])}.json"


def write_certificate(cert: Mapping[str, Any], out_dir: str | os.PathLike) -> Path:
    """Write ``<kernel>.<backend>.json`` atomically (temporary file, then rename)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return write_atomic(out / filename(cert), cert)


def write(cert: dict, out_dir: str | os.PathLike) -> Path:
    """``write_certificate``, then the document records the file's path (not in the file)."""
    path = write_certificate(cert, out_dir)
    cert["path"] = str(path)
    return path
