"""Audit a function from the user's own code: which algebraic properties does it have,
and which optimizations do they license?

``python -m verify audit FILE.py:FUNC [--json] [--example ARGS]``

The function is loaded from its file and run, unchanged, under the checker's
interpretations: laws are built on the fly around it (``f(f(a, b), c) = f(a, f(b, c))``
and so on), proved with z3 where the prover can follow the code, searched with
hypothesis against the mpmath oracle where it cannot, and checked for bit-exactness in
float32 and float64.

The kind of function (``binary``, ``two-argument``, ``vector``, ``unary``) is decided by
``verify.auditing.signature``; the properties built for each kind by
``verify.auditing.properties``; identity elements and dependency structure by
``identity`` and ``locality``; one property's report entry by ``report``.

Soundness rules followed here: a ``proved`` verdict comes only from an unsat z3 query
(with the prover's stated assumptions, such as nonzero denominators); every
counterexample is confirmed by the mpmath oracle at two precisions before it is
reported; constructs the symbolic interpretation cannot follow faithfully (hashing of
values: ``set``, ``dict``, ``Counter``, ``statistics.mode``) send the property to the
searcher with the reason stated; an identity element is reported only when proved or
tested, and "no identity" only when z3 shows that no real element satisfies the
identity equations at a few sample points and the infinite candidates fail there.
"""
from __future__ import annotations

import contextlib
import io
import time
import types
from typing import Mapping

from verify.auditing import declared
from verify.auditing.floats import FLOAT_FORMATS
from verify.auditing.hashing import hashing_constructs
from verify.auditing.identity import audit_identity
from verify.auditing.load import AuditError, load_target
from verify.auditing.locality import audit_locality
from verify.auditing.properties import (Prop, binary_props, generator_props, make_law,
                                        two_argument_props, unary_props, vector_props)
from verify.auditing.report import HOLDING, entry, judge
from verify.auditing.signature import Signature, analyse, wrap
from verify.decide.policy import AUDIT, Policy
from verify.engine import freshstate
from verify.engine.faithful import refusal
from verify.results import AuditResult, LawResult, Verdict

__all__ = ["audit", "audit_function", "load_target", "AuditError", "HOLDING"]


def audit_function(fn: types.FunctionType, example: str | None = None,
                   policy: Policy = AUDIT, label: str | None = None,
                   domains: Mapping[str, str] | None = None) -> AuditResult:
    """The audit report of one function (``to_json()`` is the ``--json`` document).
    ``example`` is the text of one call's arguments (a Python literal) when the body
    does not tell the shapes; ``label`` names the function in the report; ``domains``
    maps parameter names to domain kinds (over the annotations, see ``declared``)."""
    t0 = time.perf_counter()
    unfaithful = refusal(fn)
    # the state the function has now is the fresh state each plain-Python run starts from
    with freshstate.kept([fn]) if unfaithful else contextlib.nullcontext():
        sig = declared.apply(fn, analyse(fn, example), domains)
        g = wrap(fn, sig)
        no_prover, no_floats = _hashing_reasons(fn)
        if unfaithful and not no_floats:
            no_floats = (f"{unfaithful}, which the float interpretations (copies of the "
                         "function) do not follow")
        props = _properties(g, sig, policy, no_prover, no_floats)
    notes = list(sig.notes)
    notes.append("a division, root or log needs its side condition only where its value "
                 "is used; each property lists the assumptions its proof used. A NaN "
                 "side against a number is a counterexample; inputs where the function "
                 "raises decide nothing")
    if no_prover:
        notes.append(no_prover)
    return AuditResult({"function": label or fn.__name__, "kind": sig.kind,
                        "parameters": [s.text() for s in sig.params],
                        "result": sig.result.text(), "notes": notes, "properties": props,
                        "seconds": round(time.perf_counter() - t0, 3)})


def audit(target: str, example: str | None = None, policy: Policy = AUDIT,
          domains: Mapping[str, str] | None = None) -> AuditResult:
    """Load ``FILE.py:FUNC`` and audit it; the report names the function by ``target``."""
    fn, _, _ = load_target(target)
    with contextlib.redirect_stdout(io.StringIO()):
        return audit_function(fn, example, policy, label=target, domains=domains)


def _hashing_reasons(fn) -> tuple[str | None, str | None]:
    """Why the prover and the float checks are skipped, when the function hashes values."""
    hashing = hashing_constructs(fn)
    if not hashing:
        return None, None
    what = ", ".join(hashing)
    return (f"the prover cannot follow hashing of values ({what}): symbolic values equal "
            "as numbers would be different keys",
            f"hashing of values ({what}) is not followed by the float interpretation")


def _properties(g, sig: Signature, policy: Policy, no_prover, no_floats) -> dict[str, dict]:
    props: dict[str, dict] = {}

    def run(plist):
        for prop in plist:
            if prop.lhs is None:
                props[prop.name] = _run_generators(prop, g, policy, no_prover, no_floats)
            else:
                props[prop.name] = _run(prop, g, policy, no_prover, no_floats)

    if sig.kind == "binary":
        plist = binary_props(sig)
        # identity after associativity/commutativity, the natural reading order
        run(plist[:2])
        props["identity"] = audit_identity(g, sig.params[0], policy, no_prover, no_floats)
        run(plist[2:])
    elif sig.kind == "two-argument":
        run(two_argument_props(sig))
    elif sig.kind == "unary":
        run(unary_props(sig))
    else:
        run(vector_props(sig))
        props["locality"] = audit_locality(g, sig, policy, no_prover)
    return props


def _run(prop: Prop, g, policy: Policy, no_prover, no_floats) -> dict:
    law = make_law(prop, g, no_prover=no_prover)
    res = judge(law, policy)
    return entry(prop, law, res, g, policy, no_floats)


def _run_generators(prop: Prop, g, policy: Policy, no_prover, no_floats) -> dict:
    """A permutation property from its generators: it holds when it holds for each
    generator (the property composes), fails when one generator refutes it."""
    entries = []
    for sub in generator_props(prop):
        law = make_law(sub, g, no_prover=no_prover)
        res = judge(law, policy)
        entries.append((res, entry(sub, law, res, g, policy, no_floats)))
        if res.verdict is Verdict.REFUTED:
            return entries[-1][1]
    res = combine_verdicts([r for r, _ in entries])
    out = dict(entries[-1][1])
    out["reals"] = dict(out["reals"], verdict=res["verdict"], method=res["method"],
                        assumptions=res["assumptions"], reason=res["reason"],
                        cases=res["cases"], seconds=res["seconds"])
    out["statement"] = prop.statement
    for fmt in FLOAT_FORMATS:
        parts = [e[fmt] for _, e in entries]
        bad = next((f for f in parts if f["verdict"] == "inexact"), None)
        if bad is not None:
            out[fmt] = bad
        elif all(f["verdict"] == "exact" for f in parts):
            out[fmt] = dict(parts[-1], cases=sum(f.get("cases") or 0 for f in parts))
        else:
            out[fmt] = next(f for f in parts if f["verdict"] != "exact")
    out["licenses"] = prop.licenses if res["verdict"] in HOLDING else None
    return out


def combine_verdicts(parts: list[LawResult]) -> dict:
    """Several laws making up one property (one per permutation generator), none
    refuted: the weakest verdict, every assumption, the cases and seconds summed."""
    worst = min(parts, key=lambda p: p.verdict.strength)
    out = {k: worst[k] for k in ("verdict", "method", "reason", "cases")}
    out["assumptions"] = sorted({a for p in parts for a in p.assumptions})
    if worst.verdict is Verdict.TESTED:
        out["cases"] = sum(p.cases or 0 for p in parts)
    out["seconds"] = round(sum(p.seconds for p in parts), 4)
    return out
