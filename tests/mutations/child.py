"""Child process of the mutation runner: certify the kernels a mutant affects and check
the catalog laws of an edited combine, from the scratch copy of the project.

    python child.py --root DIR --report FILE [--kernels a,b] [--combine NAME]

Run with ``DIR`` first on ``PYTHONPATH``. Before anything is judged it checks that
``impls``, ``laws`` and ``verify`` were imported from ``DIR`` (the project is also
installed editable, and its finder sits on ``sys.meta_path``); if not, the report holds
``setup_error`` and nothing else. Certification runs without planted variants (the
mutant is the variant) through ``verify.api.certify_all`` in this process: this process
is the isolation (the runner counts its death as caught), which saves starting a
grandchild per mutant.

The report: {"kernels": {name: {"pass", "rho", "reason"}}, "laws": {id: {"ok",
"verdict", "reason"}}, "finders": [...]}.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
from pathlib import Path


def imported_from_copy(root: Path) -> str | None:
    """None when the project's packages come from ``root``; else what went wrong."""
    for name in ("impls", "laws", "verify", "laws.associativity.combines"):
        module = importlib.import_module(name)
        where = Path(module.__file__).resolve()
        if root.resolve() not in where.parents:
            return f"{name} imported from {where}, not from the copy {root}"
    return None


def certificate_reason(cert: dict) -> str:
    """One line on why a certificate failed (or its worst ρ when it passed)."""
    for dtype, result in (cert.get("per_dtype") or {}).items():
        for record in result.get("cases", []):
            if record.get("pass"):
                continue
            if record.get("problem"):
                return f"{dtype} {record['name']}: {record['problem']}"[:240]
            for output, check in record.get("outputs", {}).items():
                if not check.get("ok"):
                    detail = check.get("problem") or f"rho {check.get('rho', float('nan')):.3g}"
                    return f"{dtype} {record['name']}: {output} {detail}"[:240]
    bad_laws = [lid for lid, v in (cert.get("laws") or {}).items() if not v.get("ok")]
    if bad_laws:
        return "laws disagree: " + ", ".join(bad_laws)
    notes = [n for n in cert.get("notes") or [] if "bfloat16 is certified only" not in n]
    if notes:
        return notes[0][:240]
    return f"pass={cert.get('pass')} rho={cert.get('rho')}"


def laws_of_combine(name: str) -> list:
    """Catalog laws whose combine calls ``combines.<name>``."""
    from laws import REGISTRY
    chosen = []
    for law in REGISTRY:
        fn = law.combine
        code = getattr(getattr(fn, "fn", fn), "__code__", None)
        if code is not None and name in code.co_names and "combines" in code.co_names:
            chosen.append(law)
    return chosen


def check_laws(name: str) -> dict:
    from verify import api
    out = {}
    for law in laws_of_combine(name):
        doc = api.check(law).to_json()
        cex = doc.get("counterexample")
        reason = f"verdict {doc.get('verdict')} (expected {law.expect})"
        if cex and not doc.get("ok"):
            reason += " with a counterexample"
        out[law.id] = {"ok": bool(doc.get("ok")), "verdict": doc.get("verdict"),
                       "reason": reason}
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True, type=Path)
    parser.add_argument("--report", required=True, type=Path)
    parser.add_argument("--kernels", default="")
    parser.add_argument("--combine", default=None)
    args = parser.parse_args()
    report: dict = {"finders": [type(f).__name__ if not isinstance(f, type) else f.__name__
                                for f in sys.meta_path], "kernels": {}, "laws": {}}
    from verify import api
    api.use_backend("auto")  # before anything imports triton: it reads TRITON_INTERPRET once
    problem = imported_from_copy(args.root)
    if problem:
        report["setup_error"] = problem
        args.report.write_text(json.dumps(report))
        return 3
    kernels = [k for k in args.kernels.split(",") if k]
    if kernels:
        with tempfile.TemporaryDirectory() as out:
            certs = api.certify_all(kernels, planted=False, progress=False, out=out,
                                    isolate=False)
        for name, cert in zip(kernels, certs):
            doc = cert.to_json()
            report["kernels"][name] = {"pass": bool(doc.get("pass")), "rho": doc.get("rho"),
                                       "reason": certificate_reason(doc)}
        args.report.write_text(json.dumps(report, default=str))
    if args.combine:
        report["laws"] = check_laws(args.combine)
    args.report.write_text(json.dumps(report, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
