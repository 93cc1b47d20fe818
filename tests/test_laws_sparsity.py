"""Sparsity laws: verdicts, the near miss's replayed counterexample, and a planted wrong
variant that must be refuted."""
import dataclasses

import pytest

from laws import REGISTRY
from verify.decide.check import check_law
from replay import MP, replays

EXPECTED = {
    "causal_block_skip.skip": "proved-bounded",
    "causal_block_skip.drop_diagonal": "refuted",
    "moe_topk.routing": "proved-bounded",
    "spmv_skip_zeros.skip": "proved-bounded",
    "relu_skip.skip": "proved-bounded",
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


def test_causal_skip_uses_the_shared_flash_state_combine():
    from laws.associativity import combines
    from laws.sparsity import causal_block_skip as cbs
    assert cbs.combines.flash_state is combines.flash_state


def test_causal_skip_never_visits_a_block_above_the_diagonal():
    from laws.sparsity import causal_block_skip as cbs
    n, b = 4, 2
    for i in range(n):
        last = cbs._up_to_diagonal(i, b)
        assert last * b <= i < (last + 1) * b      # the diagonal block is the last one


def test_drop_diagonal_counterexample_replays(results):
    law = REGISTRY["causal_block_skip.drop_diagonal"]
    assert law.teaches == "causal_block_skip.skip"
    assert replays(law, results["causal_block_skip.drop_diagonal"]["counterexample"])


def test_top_k_selection_matches_a_sort():
    from laws.sparsity import moe_topk
    logits = [0.5, 2.0, -1.0, 2.0, 1.5]
    order = sorted(range(5), key=lambda e: (-logits[e], e))
    for k in (1, 2, 3):
        assert moe_topk.top_k(logits, k) == order[:k]
        in_top_k = MP.rebind(moe_topk.in_top_k)   # tl.where needs an interpretation
        assert [e for e in range(5) if in_top_k(logits, e, k)] == sorted(order[:k])


def test_planted_moe_with_the_wrong_tie_rule_is_refuted():
    # Top-k selection that lets a later expert win ties (>=) disagrees with the dense
    # mask's rule (lower index wins) exactly on ties; z3 finds one.
    from laws.sparsity import moe_topk
    import triton.language as tl

    def top_k_late_ties(logits, k):
        chosen = []
        for _ in range(k):
            best = None
            for e in range(len(logits)):
                if e in chosen:
                    continue
                if best is None or logits[e] >= logits[best]:
                    best = e
            chosen.append(best)
        return chosen

    def routed_late(*experts, k, **_):
        logits = [x[0] for x in experts]
        chosen = top_k_late_ties(logits, k)
        w = [tl.exp(logits[e]) for e in chosen]
        return sum(w[t] * experts[e][1] for t, e in enumerate(chosen)), sum(w)
    good = REGISTRY["moe_topk.routing"]
    planted = dataclasses.replace(good, lhs=routed_late, instances=({"E": 3, "k": 1},))
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])
    assert moe_topk.top_k([1.0, 1.0], 1) == [0]
