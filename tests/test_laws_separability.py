"""Separability laws: verdicts, the near miss's replayed counterexample, and a planted
wrong variant that must be refuted."""
import dataclasses

import pytest

from laws import REGISTRY
from verify.decide.check import check_law
from replay import replays

EXPECTED = {
    "lora.factored_product": "proved-bounded",
    "lora.parameter_count": "proved",
    "lora.wrong_order": "refuted",
    "matmul_reassociation.premultiply": "proved-bounded",
    "separable_conv.rank1": "proved-bounded",
    "separable_conv.rank2_kernel": "refuted",
    "low_rank_truncation.eckart_young": "tested",
}
@pytest.fixture(scope="module")
def results():
    return {law_id: check_law(REGISTRY[law_id], floats=False) for law_id in EXPECTED}


@pytest.mark.parametrize("law_id", sorted(EXPECTED))
def test_verdict(results, law_id):
    r = results[law_id]
    assert r["verdict"] == EXPECTED[law_id], (r["reason"], r["counterexample"])
    assert r["ok"]


def test_bounded_proofs_state_their_bound(results):
    for law_id, verdict in EXPECTED.items():
        if verdict == "proved-bounded":
            assert results[law_id]["bound"], law_id


def test_eckart_young_compared_every_generated_case(results):
    r = results["low_rank_truncation.eckart_young"]
    assert r["cases"] == 200 and r["reason"]


@pytest.mark.parametrize("law_id", ["lora.wrong_order", "separable_conv.rank2_kernel"])
def test_near_miss_counterexample_replays(results, law_id):
    law = REGISTRY[law_id]
    assert law.teaches in REGISTRY
    assert replays(law, results[law_id]["counterexample"])


def test_planted_lora_scaling_on_one_side_is_refuted():
    # The LoRA scale α/r applied to the adapter path but not to the merged weight.
    good = REGISTRY["lora.factored_product"]
    planted = dataclasses.replace(
        good, rhs=lambda x, W, B, A, **_: x @ W + ((x @ B) @ A) * 0.5)
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])


def test_planted_truncation_bound_too_small_is_refuted():
    # Claiming the rank-1 truncation errs by at most σ₂/2 on a matvec is false.
    good = REGISTRY["low_rank_truncation.eckart_young"]
    from laws.separability import low_rank_truncation as lrt

    def halved(A, P, Q, x, r, **_):
        b = lrt._bound(A, P, Q, x, r)
        return b[:2] + [v / 2 for v in b[2:]]
    planted = dataclasses.replace(good, error_bound=halved)
    r = check_law(planted, floats=False, cases=60)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])
