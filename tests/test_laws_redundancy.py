"""Redundancy laws: verdicts, the near misses' replayed counterexamples, and a planted
wrong variant that must be refuted."""
import dataclasses

import pytest

from laws import REGISTRY
from verify.decide.check import check_law
from replay import replays
from verify.engine.shapes import flatten

EXPECTED = {
    "kv_cache.incremental": "tested",
    "kv_cache.forget_newest": "refuted",
    "prefix_cache.merge": "proved-bounded",
    "int8_quantization.rounding": "proved-bounded",
    "int8_quantization.matmul_bound": "proved-bounded",
    "int8_quantization.round_scale": "refuted",
}
@pytest.fixture(scope="module")
def results():
    return {law_id: check_law(REGISTRY[law_id], floats=False) for law_id in EXPECTED}


@pytest.mark.parametrize("law_id", sorted(EXPECTED))
def test_verdict(results, law_id):
    r = results[law_id]
    assert r["verdict"] == EXPECTED[law_id], (r["reason"], r["counterexample"])
    assert r["ok"]
    if r["verdict"] == "proved-bounded":
        assert r["bound"]


def test_kv_cache_is_tested_on_every_generated_case(results):
    r = results["kv_cache.incremental"]
    assert r["cases"] == 200 and r["reason"]


def test_prefix_merge_calls_the_shared_combine():
    from laws.associativity import combines
    from laws.redundancy import prefix_cache
    assert prefix_cache.combines.flash_state is combines.flash_state


@pytest.mark.parametrize("law_id", ["kv_cache.forget_newest", "int8_quantization.round_scale"])
def test_near_miss_counterexample_replays(results, law_id):
    law = REGISTRY[law_id]
    assert law.teaches in REGISTRY
    assert replays(law, results[law_id]["counterexample"])


def test_quantization_helpers_on_numbers():
    import numpy as np
    from laws.redundancy import int8_quantization as q
    W = np.array([[1.0, -0.5], [-2.54, 0.25]], dtype=object)
    s = q.scales(W)
    assert s == [2.54 / 127, 0.5 / 127]
    Q = np.array([[round(W[i][c] / s[c]) for c in range(2)] for i in range(2)], dtype=object)
    assert all(flatten(q.rounding_pre(W, Q)))
    assert all(abs(W[i][c] - s[c] * Q[i][c]) <= s[c] / 2 for i in range(2) for c in range(2))


def test_planted_quarter_step_rounding_bound_is_refuted():
    # Round to nearest errs by up to s/2, not s/4.
    from laws.redundancy import int8_quantization as q
    good = REGISTRY["int8_quantization.rounding"]

    def quarter(W, Q):
        b = q._rounding_bound(W, Q)
        return [v / 2 for v in b[:4]] + b[4:]
    planted = dataclasses.replace(good, error_bound=quarter)
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])
