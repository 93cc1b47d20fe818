"""The one decision procedure: its policy, its typed result, its exact rational path,
and what an exception or a contradicted proof becomes."""
import pytest

from laws import REGISTRY
from laws import templates as T
from laws.core import SEARCH, Law, Property, Var
from verify.decide import decide as D
from verify.decide import rational
from verify.decide.check import check_law
from verify.decide.policy import AUDIT, CATALOG
from verify.decide.prover import Proof
from verify.results import LawResult, Verdict


def chan_merge(a, b):
    na, ma, m2a = a
    nb, mb, m2b = b
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, m2a + m2b + d * d * na * nb / n


def _assoc(combine, state=None):
    state = state or Var("s")
    vars_ = tuple(Var(n, state.shape, state.domain) for n in "abc")
    return T.instantiate(T.ASSOCIATIVE, combine, vars_, id="user.associative")


def test_decide_returns_the_document_check_law_prints():
    law = REGISTRY["sum.associative"]
    res = D.decide(law, CATALOG.with_(floats=False))
    assert isinstance(res, LawResult) and res.verdict is Verdict.PROVED
    doc = check_law(law, floats=False)
    assert {k: v for k, v in res.to_json().items() if k != "seconds"} == {
        k: v for k, v in doc.items() if k != "seconds"}


def test_verdicts_are_typed_up_to_the_document_which_holds_their_strings():
    from verify.decide.fpproof import prove_exact
    from verify.decide.prover import prove
    from verify.decide.search import search
    law = REGISTRY["sum.associative"]
    assert prove(law).status is Verdict.PROVED
    assert search(law, {}, 20).status is Verdict.TESTED
    exact = prove_exact(REGISTRY["max.associative"], "float16", timeout_ms=20_000)
    assert exact is not None and exact.status is Verdict.PROVED
    wrong = _assoc(lambda a, b: a - b)
    assert prove(wrong).status is Verdict.REFUTED
    doc = D.decide(wrong, CATALOG.with_(floats=False)).to_json()
    assert type(doc["verdict"]) is str and doc["verdict"] == "refuted"


def test_the_policy_sets_the_searcher_cases():
    law = Law(id="user.commutes", property=Property.SYMMETRY, statement="a + b = b + a",
              licenses="x", vars=(Var("a"), Var("b")), lhs=lambda a, b: a + b,
              rhs=lambda a, b: b + a, method=SEARCH, reason="searched on purpose")
    res = D.decide(law, CATALOG.with_(cases=12))
    assert res.verdict is Verdict.TESTED and 0 < res.cases <= 12
    assert res.method == "hypothesis + mpmath oracle" and res.reason == "searched on purpose"


def _raising(a, b, c):
    raise RuntimeError("broken side")


def test_an_exception_is_a_malformed_law_in_the_catalog_and_unknown_for_user_code():
    law = Law(id="user.broken", property=Property.ASSOCIATIVITY, statement="s",
              licenses="x", vars=(Var("a"), Var("b"), Var("c")), lhs=_raising,
              rhs=_raising)
    catalog = D.decide(law, CATALOG.with_(floats=False))
    assert catalog.verdict is Verdict.ERROR and "broken side" in catalog.reason
    assert "traceback" in catalog.to_json()
    user = D.decide(law, AUDIT.with_(floats=False))
    assert user.verdict is Verdict.UNKNOWN and "broken side" in user.reason


def test_a_rational_identity_z3_cannot_decide_is_proved_exactly():
    law = _assoc(chan_merge, Var("s", (3,)))
    res = D.decide(law, AUDIT.with_(timeout_ms=300, floats=False))
    assert res.verdict is Verdict.PROVED, res.to_json()
    assert "rational-function identity" in res.method
    assert "a[0] + b[0] ≠ 0" in res.assumptions


def test_the_rational_path_proves_identities_and_nothing_else():
    assert rational.identity(_assoc(lambda a, b: a - b)) is None
    assert len(rational.identity(_assoc(max)).regions) > 1  # max: proved path by path
    found = rational.identity(_assoc(lambda a, b: a * b / (a + b)))
    assert found is not None
    assert {"a + b ≠ 0", "b + c ≠ 0"} <= set(found.assumptions)


def test_a_contradicted_proof_is_an_error_with_its_counterexample(monkeypatch):
    law = _assoc(lambda a, b: a - b)

    def contradicted(law, instance, timeout_ms, **kw):
        return Proof("error", "the independent check found a counterexample to the proof",
                     values=[1, 2, 3], encodings=["x"])
    monkeypatch.setattr(D, "prove", contradicted)
    res = D.decide(law, CATALOG.with_(floats=False))
    assert res.verdict is Verdict.ERROR and "independent check" in res.reason
    assert res.counterexample["bindings"] == {"a": 1, "b": 2, "c": 3}
    assert res.values == [1, 2, 3] and not res.ok


def test_a_timed_out_prover_falls_back_to_the_searcher(monkeypatch):
    def slow(law, instance, timeout_ms, **kw):
        return Proof("unknown", "z3: timed out after 1 ms")
    monkeypatch.setattr(D, "prove", slow)
    monkeypatch.setattr(D.rational, "identity", lambda law, inst: None)
    res = D.decide(_assoc(max), AUDIT.with_(floats=False, cases=20))
    assert res.verdict is Verdict.TESTED and "timed out" in res.reason
    assert res.method.endswith("hypothesis + mpmath oracle")


@pytest.mark.parametrize("law_id", ["subtraction.associative", "mean.of_means"])
def test_a_refutation_carries_raw_values_and_the_printed_counterexample(law_id):
    res = D.decide(REGISTRY[law_id], CATALOG.with_(floats=False))
    assert res.verdict is Verdict.REFUTED and res.ok
    assert res.values is not None and len(res.values) == len(res.counterexample["bindings"])
