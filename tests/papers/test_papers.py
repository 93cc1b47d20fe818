"""papers: the JSON contract of check_all, law claims against a fake catalog, the link
from laws to claims, and compatibility with what verify/commands.py imports today."""
import pytest

import papers
from papers.claims import (CONDITIONAL, CONFIRMED, KINDS, NOT_CHECKABLE, REFUTED, VERDICTS,
                           Claim, Outcome)

SEED_MODULES = {"book_preface", "book_ch3", "book_ch8", "book_ch36", "attention_moa"}


def catalog_ok(law_id):
    """A fake catalog where every law agrees with its expectation, unboundedly."""
    from laws import REGISTRY
    law = REGISTRY[law_id]
    return {"verdict": "proved" if law.expect == "holds" else "refuted", "ok": True}


@pytest.fixture(scope="session")
def results():
    return papers.check_all(catalog_ok)


def test_check_all_has_exactly_the_json_shape(results):
    assert {p["id"] for p in results} >= SEED_MODULES | {"dao2022", "gu2023", "milakov2018"}
    for paper in results:
        assert set(paper) == {"id", "title", "claims"}
        assert paper["claims"], paper["id"]
        for claim in paper["claims"]:
            assert set(claim) == {"text", "where", "kind", "verdict", "evidence"}
            assert claim["kind"] in KINDS
            assert claim["verdict"] in VERDICTS
            assert claim["where"].strip() and claim["evidence"].strip()
            assert "the check raised" not in claim["evidence"], (paper["id"], claim)


def test_every_claim_kind_and_every_verdict_occurs(results):
    claims = [c for p in results for c in p["claims"]]
    assert {c["kind"] for c in claims} == set(KINDS)
    # no GPU in CI: speedups are needs-gpu; every other verdict occurs too
    assert {c["verdict"] for c in claims} >= {CONFIRMED, REFUTED, CONDITIONAL, NOT_CHECKABLE}


def test_seed_claims_cite_the_seed_file_and_lines(results):
    from papers.seeds import FILES
    for paper in results:
        if paper["id"] in SEED_MODULES:
            for claim in paper["claims"]:
                assert any(f"seeds/{f}:" in claim["where"] for f in FILES.values()), claim


def test_the_texts_errors_come_out_refuted(results):
    refuted = {(p["id"], c["text"][:40]) for p in results for c in p["claims"]
               if c["verdict"] == REFUTED}
    expected = {
        ("book_ch8", "For x = (1, 3, 2, 5, 4) the naive and th"),
        ("book_ch8", "Chunks [1, 2, 3] and [4, 5, 6] show that"),
        ("book_ch36", "10¹² operations at 10 TFLOPS take 100 se"),
        ("book_ch36", "Profiling the sequential scan prints 12."),
        ("book_ch36", "The simplified Triton kernel is a chunke"),
        ("book_ch3", "GPU shared memory (SRAM) is 10–100× fast"),
        ("book_ch3", "A GPU's SRAM runs at ~8 TB/s."),
        ("book_ch3", "Applied to recurrence states, the same p"),
        ("attention_moa", "The normal form agrees exactly with PyTo"),
    }
    assert refuted == expected


def test_every_law_a_claim_names_exists():
    from laws import REGISTRY
    named = {law for paper in papers.PAPERS.values() for c in paper.claims
             for law in getattr(c, "laws", ()) + getattr(c, "related", ())}
    assert named and not named - set(REGISTRY.ids())


# --------------------------------------------------------------------------- law claims
CLAIM = Claim("a and b hold", ("a", "b"), "§1")


def test_law_claim_confirmed_when_every_law_agrees():
    out = CLAIM.check(lambda law: {"verdict": "proved", "ok": True})
    assert out.verdict == CONFIRMED and "a: proved" in out.evidence


def test_law_claim_refuted_when_a_law_disagrees_shows_the_counterexample():
    def catalog(law):
        if law == "b":
            return {"verdict": "refuted", "ok": False, "expect": "holds",
                    "counterexample": {"bindings": {"x": 2}, "lhs": 1, "rhs": 3}}
        return {"verdict": "proved", "ok": True}
    out = CLAIM.check(catalog)
    assert out.verdict == REFUTED
    assert "b is refuted" in out.reason and "x = 2" in out.evidence


def test_law_claim_conditional_on_bounded_or_tested_laws():
    out = CLAIM.check(lambda law: {"verdict": "proved-bounded", "ok": True, "bound": "n ≤ 8"}
                      if law == "a" else {"verdict": "tested", "ok": True, "cases": 300})
    assert out.verdict == CONDITIONAL
    assert "n ≤ 8" in out.evidence and "300 cases" in out.evidence


def test_law_claim_not_checkable_without_a_decision():
    assert CLAIM.check(None).verdict == NOT_CHECKABLE
    assert CLAIM.check(lambda law: {"verdict": "unknown", "ok": False,
                                    "reason": "timeout"}).verdict == NOT_CHECKABLE

    def missing(law):
        raise KeyError(law)
    out = CLAIM.check(missing)
    assert out.verdict == NOT_CHECKABLE and "missing" in out.reason


def test_anti_law_claim_is_confirmed_by_its_refutation():
    out = Claim("no rescale is wrong", ("x.no_rescale",), "§3").check(
        lambda law: {"verdict": "refuted", "ok": True,
                     "counterexample": {"bindings": {"a": 1}, "lhs": 0, "rhs": 1}})
    assert out.verdict == CONFIRMED and "anti-law" in out.reason and "a = 1" in out.evidence


def test_outcome_rejects_unknown_verdicts_and_empty_evidence():
    with pytest.raises(ValueError):
        Outcome("proved", "x")
    with pytest.raises(ValueError):
        Outcome(CONFIRMED, "  ")


# --------------------------------------------------------------------------- links, compat
def test_claims_for_law_links_papers_and_book():
    linked = papers.claims_for_law("online_softmax.associative")
    assert {"milakov2018", "book_ch8", "book_ch3", "book_preface"} <= {c["paper"] for c in linked}
    assert all(set(c) == {"paper", "title", "text", "where", "kind"} for c in linked)
    assert papers.claims_for_law("no.such.law") == []


def test_verify_api_check_papers_reuses_given_law_results():
    from laws import REGISTRY
    from verify.api import check_papers
    out = check_papers({law: catalog_ok(law) for law in REGISTRY.ids()})
    assert all(p["ok"] for p in out)
    assert {"id", "title", "authors", "year", "venue", "claims", "ok"} <= set(out[0])
    claims = [c for p in out for c in p["claims"]]
    assert all({"text", "where", "kind", "verdict", "evidence", "ok"} <= set(c) for c in claims)
    assert {c["verdict"] for c in claims if c["kind"] == "law"} <= {"confirmed", "conditional"}
