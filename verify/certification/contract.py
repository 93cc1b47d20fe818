"""What a certificate says about its cases: the contract classes they cover, and how
tight the bound is on them.

``coverage`` compares the classes the cases declare (``Case.classes``) with
the classes the kernel's contract requires (``KernelSpec.coverage.contract_classes``): a
required class that no case covers makes the certificate fail, with a one-line reason.
``tightness`` reports, per dtype, the largest ρ = error / bound over every case and
float output, and the case and output where it occurs: ρ near 1 means the bound is
nearly attained on some case; a small ρ means the bound is loose there, or the cases
miss the inputs that attain it.

Not covered: whether a class's cases really exercise what the class's name says; that
is each kernel's job (its tests plant a broken variant per class).
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping


def coverage(spec, cases: Iterable[Any]) -> dict:
    """{"covered", "required", "missing"}: class names, sorted."""
    covered = sorted({c for case in cases for c in case.classes})
    required = sorted(set(spec.coverage.contract_classes))
    missing = [c for c in required if c not in covered]
    return {"covered": covered, "required": required, "missing": missing}


def missing_reason(spec_name: str, missing: list[str]) -> str | None:
    """One line naming the required classes no case covers, or None."""
    if not missing:
        return None
    return (f"{spec_name}: contract class(es) not covered by any case: "
            + ", ".join(missing))


def tightness(per_dtype: Mapping[str, Mapping[str, Any]]) -> dict:
    """{dtype: {"rho", "case", "output", "slack"}}: the case and float output with the
    largest finite ρ; slack = 1/ρ (how far the measured error could grow before the
    certificate failed). A dtype whose outputs are all compared exactly says so."""
    out = {}
    for dtype, result in per_dtype.items():
        best: tuple[float, str | None, str | None] = (-1.0, None, None)
        for record in result.get("cases", ()):
            for key, compared in record.get("outputs", {}).items():
                rho = compared.get("rho")
                if rho is None or not math.isfinite(rho):
                    continue
                if rho > best[0]:
                    best = (rho, record["name"], key)
        if best[1] is None:
            out[dtype] = {"rho": None, "case": None, "output": None, "slack": None,
                          "note": "every output is compared exactly (no bound)"}
            continue
        rho, case, key = best
        out[dtype] = {"rho": rho, "case": case, "output": key,
                      "slack": (1.0 / rho) if rho > 0 else None}
    return out
