"""The failing cases of a certificate as lines for the terminal: where each failed and by
how much — the element, the kernel's and the oracle's values there, the bound and ρ —
or the crash (exception, first line, file:line), so a failure can be acted on without
opening the JSON. At most ``limit`` cases per dtype, then how many more."""
from __future__ import annotations

from typing import Any, Iterator, Mapping


def _number(value: Any) -> str:
    if isinstance(value, (int, float)):
        return f"{value:.6g}"
    return "∞" if value in ("inf", "Infinity") else str(value)


def _output_line(name: str, comparison: Mapping[str, Any]) -> str:
    if comparison.get("problem"):
        return f"{name}: {comparison['problem']}"
    first = comparison.get("first_mismatch")
    if first:
        return (f"{name}{list(first['index'])}: kernel {_number(first['kernel'])}, "
                f"exact {_number(first['oracle'])} ({comparison.get('mismatches')} "
                f"mismatch(es); compared exactly)")
    if "worst_kernel" in comparison:
        index = comparison.get("worst_index")
        where = f"{name}{list(index)}" if index is not None else name
        nan = comparison.get("nan_mismatches") or 0
        return (f"{where}: kernel {_number(comparison['worst_kernel'])}, oracle "
                f"{_number(comparison['worst_oracle'])}, bound "
                f"{_number(comparison['worst_bound'])}, ρ {_number(comparison['worst_rho'])}"
                + (f" ({nan} NaN where the oracle is not, or the reverse)" if nan else ""))
    return f"{name}: failed"


def case_line(case: Mapping[str, Any]) -> str:
    """One failing case: its crash, its problem, or each failing output's worst element."""
    if case.get("crash"):
        at = f" at {case['crash_at']}" if case.get("crash_at") else ""
        return f"crashed: {case['crash']}{at}"
    failing = [_output_line(k, c) for k, c in (case.get("outputs") or {}).items()
               if not c.get("ok")]
    if failing:
        return "; ".join(failing)
    return str(case.get("problem") or f"ρ {_number(case.get('rho'))}")


def lines(cert: Mapping[str, Any], limit: int = 3) -> Iterator[str]:
    """``KERNEL DTYPE 'CASE': …`` for the first ``limit`` failing cases of each dtype."""
    for dtype, result in (cert.get("per_dtype") or {}).items():
        failed = [c for c in result.get("cases", []) if not c.get("pass")]
        for case in failed[:limit]:
            yield f"{cert['kernel']} {dtype} '{case.get('name')}': {case_line(case)}"
        if len(failed) > limit:
            yield (f"{cert['kernel']} {dtype}: … and {len(failed) - limit} more failing "
                   f"case(s) (--json has them all)")
