"""lawcheck's checker: prove algebraic laws, audit your own functions, certify kernels.

The public API (everything in ``__all__``; the rest of the package may change)::

    import verify
    from laws import Law, Monoid, Var, Property   # also verify.Law, verify.Var, ...

    verify.check("online_softmax.associative")     # -> LawResult
    verify.check_all()                             # -> [LawResult], the catalog
    verify.audit(my_combine)                       # -> AuditResult ("FILE.py:FUNC" too)
    verify.certify("softmax")                      # -> Certificate
    verify.testing.assert_monoid(...)              # assertions for your own pytest suite

A result's ``to_json()`` is the document the matching ``python -m verify ... --json``
prints. Limits (time per query, cases, float checks) come in a ``Policy``. Errors the
checker raises on purpose derive from ``VerifyError``; unusable input is ``BadInput``.

>>> import verify
>>> r = verify.check("online_softmax.no_rescale", verify.Policy(floats=False))
>>> r.verdict, r.ok          # an anti-law: refuted, as it should be
(<Verdict.REFUTED: 'refuted'>, True)
>>> sorted(r.counterexample["bindings"])
['a', 'b', 'c']

Importing the package is cheap: z3, torch and triton load on first use.
"""
from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "check", "check_all", "audit", "certify", "certify_all",
    "Verdict", "Policy", "VerifyError", "BadInput",
    "Result", "LawResult", "FloatVerdict", "AuditResult", "Certificate",
    "Law", "Var", "Monoid", "Property",
]

_WHERE = {
    "check": "verify.api", "check_all": "verify.api", "audit": "verify.api",
    "certify": "verify.api", "certify_all": "verify.api",
    "Verdict": "verify.results", "Result": "verify.results", "LawResult": "verify.results",
    "FloatVerdict": "verify.results", "AuditResult": "verify.results",
    "Certificate": "verify.results",
    "Policy": "verify.decide.policy",
    "VerifyError": "verify.errors", "BadInput": "verify.errors",
    "Law": "laws", "Var": "laws", "Monoid": "laws", "Property": "laws",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    if name == "testing":
        return importlib.import_module("verify.testing")
    raise AttributeError(f"module 'verify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"testing"})
