"""Find the combines a ``@triton.jit`` kernel hands to ``tl.reduce`` and
``tl.associative_scan`` and audit each for what the primitive assumes.

What Triton assumes: both primitives regroup the combine freely (a tree over lanes and
warps, a work-efficient scan), so the combine must be associative. ``tl.reduce`` also
reorders operands across lanes and warps in its lowering (butterfly shuffles combine
lane i with lane i ^ k), so commutativity is required there too; ``tl.associative_scan``
keeps operand order (its lowering combines an earlier segment with a later one), so it
needs associativity only.

The kernel's source (``kernel.fn``, under any ``@triton.autotune``/``@triton.heuristics``
layers) is parsed; the combine argument (third positional
or ``combine_fn=``) is resolved through the kernel's globals, also when it is a
``@triton.jit`` helper or ``module.name``. Each is audited by the project's auditor
(``verify.auditing.audit.audit_function``: z3 first, the searcher when z3 cannot
follow, every counterexample replayed). Not found: combines passed through variables
or built at run time, and combines applied by hand to a loop's running state (listed
only when the same function is also passed to a primitive).
"""
from __future__ import annotations

import ast
import contextlib
import inspect
import io
import textwrap
from typing import Any

from verify.kernelobjects import python_function

PRIMITIVES = {"reduce": ("associative", "commutative"),
              "associative_scan": ("associative",)}
HOLDING = ("proved", "proved-bounded", "tested")


def _raw(fn: Any) -> Any:
    fn = python_function(fn)      # through @triton.autotune / @triton.heuristics layers
    while hasattr(fn, "fn") and callable(fn.fn):
        fn = fn.fn
    return fn


def _resolve(node: ast.AST, scope: dict) -> Any:
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, scope)
        return getattr(base, node.attr, None) if base is not None else None
    return None


def find_combines(kernel: Any) -> list[dict]:
    """[{"primitive", "name", "function", "line"}] for each call in the kernel's body;
    ``function`` is None when the name could not be resolved."""
    fn = _raw(kernel)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    scope = dict(fn.__globals__)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        primitive = node.func.attr
        if primitive not in PRIMITIVES:
            continue
        arg = next((k.value for k in node.keywords if k.arg == "combine_fn"), None)
        if arg is None and len(node.args) >= 3:
            arg = node.args[2]
        if arg is None:
            continue
        found.append({"primitive": primitive, "name": ast.unparse(arg),
                      "function": _resolve(arg, scope), "line": node.lineno})
    return found


def audit_combine(entry: dict) -> dict:
    """The auditor's verdicts for the properties ``entry["primitive"]`` needs."""
    needs = PRIMITIVES[entry["primitive"]]
    out = {"name": entry["name"], "primitive": entry["primitive"], "line": entry["line"],
           "requires": list(needs), "verdicts": {}, "ok": False, "failure": None}
    if entry["function"] is None:
        out["failure"] = f"combine {entry['name']} could not be resolved from the kernel's globals"
        return out
    from verify.auditing.audit import audit_function
    with contextlib.redirect_stdout(io.StringIO()):
        report = audit_function(_raw(entry["function"]), label=entry["name"]).to_json()
    props = report.get("properties", {})
    problems = []
    for need in needs:
        prop = props.get(need)
        reals = (prop or {}).get("reals", prop or {})
        verdict = reals.get("verdict", "missing")
        out["verdicts"][need] = verdict
        if verdict not in HOLDING:
            example = reals.get("counterexample") or reals.get("values")
            problems.append(f"{need}: {verdict}" + (f" (counterexample {example})"
                                                    if example else ""))
    out["ok"] = not problems
    if problems:
        out["failure"] = (f"combine {entry['name']} passed to tl.{entry['primitive']} "
                          f"(line {entry['line']}) is not shown " + "; ".join(problems))
    return out


def audit_kernel(kernel: Any) -> dict:
    """{"kernel", "combines": [audit_combine(...)], "ok"}; one audit per distinct
    (primitive, combine)."""
    seen, combines = set(), []
    for entry in find_combines(kernel):
        key = (entry["primitive"], id(entry["function"]), entry["name"])
        if key in seen:
            continue
        seen.add(key)
        combines.append(audit_combine(entry))
    return {"kernel": getattr(_raw(kernel), "__name__", str(kernel)), "combines": combines,
            "ok": all(c["ok"] for c in combines)}
