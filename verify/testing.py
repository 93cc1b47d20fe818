"""Assertions for your own pytest suite: your combine is a monoid, your law holds, a
kernel is certified.

    from verify.testing import assert_monoid

    def merge(a, b):
        return max(a, b)

    def test_merge_is_a_monoid():
        assert_monoid(merge, identity=float("-inf"), commutative=True)

A failure raises ``LawFailure`` (an ``AssertionError``), whose message names each
failing law with its statement, the verdict against the expectation, and, for a
refutation, the counterexample replayed with your function in high precision, both
sides and the gap between them.

Laws are checked over the reals (z3, or hypothesis against the mpmath oracle) under a
``Policy``; by default without the float-format verdicts, which never decide a law's
pass or fail. ``tested`` counts as holding, as everywhere in the checker; pass a
``Policy`` and look at ``result.verdict`` to require a proof.

>>> from verify.testing import assert_law
>>> [r.verdict.value for r in assert_law("max")]       # every law of the max family
['proved', 'proved', 'proved', 'proved', 'proved']
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from verify import api
from verify.results import Certificate, LawResult

__all__ = ["LawFailure", "assert_law", "assert_monoid", "assert_certified",
           "assert_float_law", "check_float_law"]


class LawFailure(AssertionError):
    """A law that does not agree with its expectation, or a kernel whose certificate
    fails; ``results`` holds the result objects behind the message."""

    def __init__(self, message: str, results: list) -> None:
        super().__init__(message)
        self.results = results


def _laws(subject: Any) -> list:
    """Laws from a Law, a Monoid, a law id, a family prefix (``"max"``: every law
    ``max.*``), or an iterable of these."""
    from laws import REGISTRY
    from laws import Law, Monoid
    if isinstance(subject, Law):
        return [subject]
    if isinstance(subject, Monoid):
        return list(subject.laws())
    if isinstance(subject, str):
        if subject in REGISTRY:
            return [REGISTRY[subject]]
        family = [law for law in REGISTRY if law.family == subject]
        return family or [api.find_law(subject)]
    if isinstance(subject, Iterable):
        return [law for item in subject for law in _laws(item)]
    raise TypeError(f"expected a Law, a Monoid, a law id or a list of them, "
                    f"got {type(subject).__name__}")


def _default_policy(policy: Any) -> Any:
    from verify.decide.policy import CATALOG
    return CATALOG.with_(floats=False) if policy is None else policy


def assert_law(subject: Any, policy: Any = None) -> list[LawResult]:
    """Check every law of ``subject`` (a Law, a Monoid: all its laws, a law id or
    family name from the catalog, or a list of these); ``LawFailure`` listing each law
    whose verdict disagrees with its expectation. Returns the results."""
    __tracebackhide__ = True  # pytest shows the caller's line and the message
    laws = _laws(subject)
    results = api.check_all(laws, _default_policy(policy))
    failed = [(law, r) for law, r in zip(laws, results, strict=True) if not r.ok]
    if failed:
        raise LawFailure("\n\n".join(describe_failure(law, r) for law, r in failed),
                         [r for _, r in failed])
    return results


def assert_monoid(combine: Callable, identity: Any, state: Any = None, *,
                  commutative: bool = False, idempotent: bool = False,
                  name: str | None = None, policy: Any = None) -> list[LawResult]:
    """``combine`` with ``identity`` is a monoid on states like ``state`` (a
    ``laws.Var``; a scalar by default, e.g. ``Var("s", (2,), labels=("m", "d"))`` for
    pairs): associative, identity on both sides, and commutative or idempotent when
    claimed. Laws are named ``NAME.associative`` etc. (``NAME`` the combine's name).

    Does not cover: a homomorphism to a specification (declare a ``laws.Monoid`` with
    lift, lower and spec and use ``assert_law``)."""
    __tracebackhide__ = True
    from laws import Monoid, Var
    family = name or getattr(combine, "__name__", "combine")
    monoid = Monoid(family=family, combine=combine, identity=identity,
                    state=state if state is not None else Var("s"),
                    lift=_no_lift, lower=_no_lift, spec=_no_lift,
                    licenses="(a user's law set)", statement=f"a ⊕ b = {family}(a, b)",
                    commutative=commutative, idempotent=idempotent)
    laws = [law for law in monoid.laws() if not law.id.endswith(".homomorphism")]
    return assert_law(laws, policy)


def _no_lift(x: Any) -> Any:
    raise NotImplementedError("assert_monoid declares no lift, lower or specification")


def assert_certified(kernel: Any, backend: str = "auto", *, out: str | None = None,
                     seed: int = 0, planted: bool = True) -> Certificate:
    """Certify ``kernel`` (a name in ``impls/`` or a ``KernelSpec``); ``LawFailure``
    unless the certificate passes. ``out``: a directory to write the certificate to."""
    __tracebackhide__ = True
    cert = api.certify(kernel, backend, seed=seed, out=out, planted=planted)
    if not cert.passed:
        raise LawFailure(describe_certificate(cert), [cert])
    return cert


# --------------------------------------------------------------------------- messages
def describe_failure(law: Any, r: LawResult) -> str:
    """A failing law as text: id, statement, verdict against the expectation, and the
    replayed counterexample with both sides and the gap."""
    doc = r.to_json()
    lines = [f"{law.id}: verdict {doc['verdict']}, expected it to {law.expect[:-1]}"
             f" ({'proved, proved-bounded or tested' if law.expect == 'holds' else 'be refuted'})",
             f"  statement: {law.statement}"]
    if doc.get("method"):
        lines.append(f"  method:    {doc['method']}")
    if doc.get("reason"):
        lines.append(f"  reason:    {doc['reason']}")
    cx = doc.get("counterexample")
    if cx:
        lines.append("  counterexample (replayed with the original function in high "
                     "precision):")
        lines += [f"    {k} = {_show(v)}" for k, v in cx["bindings"].items()]
        lines.append(f"    lhs = {_show(cx['lhs'])}")
        lines.append(f"    rhs = {_show(cx['rhs'])}")
        if cx.get("gap") is not None:
            lines.append(f"    |lhs − rhs| = {cx['gap']}")
    return "\n".join(lines)


def describe_certificate(cert: Certificate) -> str:
    doc = cert.to_json()
    lines = [f"kernel {doc.get('kernel')} is not certified on {doc.get('backend')}: "
             f"max ρ = {doc.get('rho')} (pass needs ρ ≤ 1)"]
    for law_id, v in (doc.get("laws") or {}).items():
        if not v.get("ok"):
            lines.append(f"  law {law_id}: {v.get('verdict')}")
    for dtype, r in (doc.get("per_dtype") or {}).items():
        if not r.get("pass"):
            lines.append(f"  {dtype}: ρ = {r.get('rho')}")
    lines += [f"  note: {n}" for n in doc.get("notes") or []]
    return "\n".join(lines)


def _show(v: Any) -> str:
    if isinstance(v, list):
        return "(" + ", ".join(_show(x) for x in v) + ")"
    return str(v)



def assert_float_law(law_or_id: Any, fmt: str = "float32", max_examples: int = 200) -> Any:
    """The law holds in ``fmt`` within its derived error bound on every example searched
    (``verify.certification.float_laws``: each side's rounding radius, the worst case
    searched with ``hypothesis.target``); ``refuted`` and ``unknown`` both fail."""
    from verify.certification import float_laws
    return float_laws.assert_float_law(law_or_id, fmt=fmt, max_examples=max_examples)


def check_float_law(law_or_id: Any, fmt: str = "float32", max_examples: int = 200) -> Any:
    """The float verdict with derived bounds (``FloatLawBound``) without asserting."""
    from verify.certification import float_laws
    return float_laws.check_float_law(law_or_id, fmt=fmt, max_examples=max_examples)
