"""The catalog: every law's verdict, the anti-laws' replayed counterexamples, what the
tested laws compared, unbounded proofs by induction, float verdicts, and planted wrong
variants that must be refuted.

``EXPECTED`` names the verdict of every law in the registry; one parametrized test
checks them all (the laws are decided once per session, without float verdicts).
"""
import dataclasses

import mpmath
import numpy as np
import pytest

import laws
from laws import REGISTRY
from laws.core import FAILS, PROBABILISTIC
from replay import MP, replays
from verify.decide import oracle
from verify.decide.check import check_law
from verify.decide.floats import float_verdict
from verify.engine.shapes import flatten

EXPECTED = {
    "max.associative": "proved",
    "max.identity": "proved",
    "max.commutative": "proved",
    "max.idempotent": "proved",
    "max.homomorphism": "proved",
    "argmax.associative": "proved",
    "argmax.identity": "proved",
    "argmax.commutative": "proved",
    "argmax.homomorphism": "proved-bounded",
    "welford.associative": "proved",
    "welford.identity": "proved",
    "welford.commutative": "proved",
    "welford.homomorphism": "proved",
    "welford.variance_add": "refuted",
    "pooled_variance.associative": "proved",
    "pooled_variance.identity": "proved",
    "pooled_variance.commutative": "proved",
    "pooled_variance.homomorphism": "proved",
    "median.of_medians": "refuted",
    "mode.of_modes": "refuted",
    "linear_recurrence.associative": "proved",
    "linear_recurrence.identity": "proved",
    "linear_recurrence.homomorphism": "proved",
    "affine_recurrence.matrix_form": "proved",
    "affine_recurrence.associative": "proved-bounded",
    "power_by_squaring.equals_repeated": "proved-bounded",
    "blelloch_scan.equals_sequential": "proved-bounded",
    "chunked_fold.equals_fold": "proved-bounded",
    "online_softmax.associative": "proved",
    "online_softmax.identity": "proved",
    "online_softmax.commutative": "proved",
    "online_softmax.homomorphism": "proved",
    "online_softmax.no_rescale": "refuted",
    "flash_state.associative": "proved",
    "flash_state.identity": "proved",
    "flash_state.commutative": "proved",
    "flash_state.homomorphism": "proved",
    "sum.associative": "proved",
    "sum.identity": "proved",
    "sum.commutative": "proved",
    "sum.homomorphism": "proved",
    "count.associative": "proved",
    "count.identity": "proved",
    "count.commutative": "proved",
    "count.homomorphism": "proved",
    "mean.associative": "proved",
    "mean.identity": "proved",
    "mean.commutative": "proved",
    "mean.homomorphism": "proved",
    "mean.of_means": "refuted",
    "subtraction.associative": "refuted",
    "topk_merge.merge": "proved-bounded",
    "topk_merge.truncated": "refuted",
    "lora.factored_product": "proved-bounded",
    "lora.parameter_count": "proved",
    "lora.wrong_order": "refuted",
    "low_rank_truncation.eckart_young": "tested",
    "matmul_reassociation.premultiply": "proved-bounded",
    "separable_conv.rank1": "proved-bounded",
    "separable_conv.rank2_kernel": "refuted",
    "block_matmul.blocks": "proved-bounded",
    "sliding_window_attention.band": "proved-bounded",
    "stencil_radius.window": "proved-bounded",
    "tiled_conv.halo": "proved-bounded",
    "tiled_conv.no_halo": "refuted",
    "causal_block_skip.skip": "proved-bounded",
    "causal_block_skip.drop_diagonal": "refuted",
    "moe_topk.routing": "proved-bounded",
    "relu_skip.skip": "proved-bounded",
    "spmv_skip_zeros.skip": "proved-bounded",
    "int8_quantization.rounding": "proved-bounded",
    "int8_quantization.matmul_bound": "proved-bounded",
    "int8_quantization.round_scale": "refuted",
    "kv_cache.incremental": "tested",
    "kv_cache.forget_newest": "refuted",
    "prefix_cache.merge": "proved-bounded",
    "attention_permutation.queries": "proved-bounded",
    "attention_permutation.keys_values": "proved-bounded",
    "barnes_hut.monopole_bound": "tested",
    "conv_translation.shift": "proved-bounded",
    "newton_third_law.antisymmetric": "proved",
    "newton_third_law.asymmetric_force": "refuted",
    "real_fft_symmetry.conjugate": "proved-bounded",
    # serving, distribution, approximation and structure (tests/laws/test_systems.py)
    "beam_search.candidate_pruning": "proved-bounded",
    "beam_search.not_argmax": "refuted",
    "continuous_batching.padding_in_softmax": "refuted",
    "continuous_batching.ragged_step": "proved-bounded",
    "count_min.never_underestimates": "proved-bounded",
    "count_min.overestimate_bound": "statistical",
    "count_min.too_narrow": "refuted",
    "count_min.with_deletions": "refuted",
    "data_parallel.gradient_average": "proved-bounded",
    "data_parallel.unequal_shards": "refuted",
    "fft_butterfly.cooley_tukey": "proved-bounded",
    "fft_butterfly.no_twiddle": "refuted",
    "fsdp.local_gradient": "refuted",
    "fsdp.sharded_step": "proved-bounded",
    "grouped_query_attention.mean_pooled": "refuted",
    "grouped_query_attention.shared_kv": "tested",
    "int4_quantization.groupwise_rounding": "proved-bounded",
    "int4_quantization.one_scale": "refuted",
    "linformer.distortion_bound": "tested",
    "linformer.exact": "refuted",
    "mamba_chunked_scan.no_decay_carry": "refuted",
    "mamba_chunked_scan.two_level": "proved-bounded",
    "paged_attention.block_table": "proved-bounded",
    "paged_attention.wrong_entry": "refuted",
    "performer.no_positive_normalization": "refuted",
    "performer.unbiased": "statistical",
    "quadratic_recurrence.closed_summary": "refuted",
    "radix_attention.shared_prefix": "proved-bounded",
    "radix_attention.stale_prefix": "refuted",
    "ring_allreduce.dropped_chunk": "refuted",
    "ring_allreduce.sum": "proved-bounded",
    "ring_attention.no_rescale": "refuted",
    "ring_attention.rotation": "proved-bounded",
    "rotary.query_only": "refuted",
    "rotary.relative_position": "proved-bounded",
    "speculative_decoding.exact_target": "proved-bounded",
    "speculative_decoding.no_renormalization": "refuted",
    "structured_pruning.drop_units": "proved-bounded",
    "structured_pruning.zero_incoming": "refuted",
    "tensor_parallel.activation_before_sum": "refuted",
    "tensor_parallel.column_split": "proved-bounded",
    "tensor_parallel.row_split": "proved-bounded",
}
BOUNDED = sorted(i for i, v in EXPECTED.items() if v == "proved-bounded")
ANTI = sorted(law.id for law in REGISTRY
              if law.expect == FAILS and law.method != PROBABILISTIC)


@pytest.fixture(scope="session")
def results():
    return {law.id: check_law(law, floats=False) for law in REGISTRY}


def test_every_law_has_an_expected_verdict():
    assert set(EXPECTED) == set(REGISTRY.ids())


@pytest.mark.slow
@pytest.mark.parametrize("law_id", sorted(EXPECTED))
def test_verdict(results, law_id):
    r = results[law_id]
    assert r["verdict"] == EXPECTED[law_id], (r["reason"], r["counterexample"])
    assert r["ok"]


@pytest.mark.slow
@pytest.mark.parametrize("law_id", BOUNDED)
def test_bounded_proofs_state_their_bound(results, law_id):
    assert results[law_id]["bound"], law_id


@pytest.mark.slow
@pytest.mark.parametrize("law_id", ANTI)
def test_anti_laws_are_refuted_with_a_replayed_counterexample(results, law_id):
    law = REGISTRY[law_id]
    assert law.teaches in REGISTRY
    r = results[law_id]
    assert r["verdict"] == "refuted" and r["ok"], r
    assert replays(law, r["counterexample"])


def test_instances_include_ragged_tiles_and_two_dimensions():
    blocks = REGISTRY["block_matmul.blocks"].instances
    assert any(inst["n"] % inst["bk"] for inst in blocks)
    halo = REGISTRY["tiled_conv.halo"].instances
    assert {inst["dims"] for inst in halo} == {1, 2}
    assert any(inst["n"] % inst["T"] for inst in halo)


def test_sliding_window_covers_every_query_row():
    law = REGISTRY["sliding_window_attention.band"]
    n = law.instances[0]["n"]
    assert sorted(inst["i"] for inst in law.instances) == list(range(n))


def test_no_halo_counterexample_replays(results):
    law = REGISTRY["tiled_conv.no_halo"]
    assert law.teaches == "tiled_conv.halo"
    assert replays(law, results["tiled_conv.no_halo"]["counterexample"])


def test_planted_block_matmul_dropping_the_ragged_inner_block_is_refuted():
    from laws.locality import block_matmul as bm

    def full_blocks_only(A, B, m, n, p, bm_, bn, bk):
        # Loops over whole inner blocks only: the ragged last block of k is lost.
        return bm.blocked_product(A[:, :n - n % bk], B[:n - n % bk, :], bm_, bn, bk)
    good = REGISTRY["block_matmul.blocks"]
    planted = dataclasses.replace(
        good, instances=({"m": 3, "n": 5, "p": 3, "bm": 2, "bn": 2, "bk": 2},),
        rhs=lambda A, B, m, n, p, bm, bn, bk: full_blocks_only(A, B, m, n, p, bm, bn, bk))
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])


def test_planted_stencil_with_too_small_window_is_refuted():
    # Claiming radius-2 outputs depend only on inputs within 1 is false.
    from laws.locality import stencil_radius as sr
    good = REGISTRY["stencil_radius.window"]
    planted = dataclasses.replace(
        good, instances=({"dims": 1, "n": 5, "R": 2},),
        rhs=lambda x, y, w, dims, n, R: [sr.conv1d_at(sr._window_1d(x, y, i, R - 1), w, R, i)
                                         for i in range(n)])
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])


def test_kv_cache_is_tested_on_every_generated_case(results):
    r = results["kv_cache.incremental"]
    assert r["cases"] == 200 and r["reason"]


def test_prefix_merge_calls_the_shared_combine():
    from laws.associativity import combines
    from laws.redundancy import prefix_cache
    assert prefix_cache.combines.flash_state is combines.flash_state


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


def test_eckart_young_compared_every_generated_case(results):
    r = results["low_rank_truncation.eckart_young"]
    assert r["cases"] == 200 and r["reason"]


def test_a_memoized_svd_adds_no_branch_to_the_oracles_log():
    # The SVD memo once keyed on mpf numbers: its lookups compared them inside the law's
    # code, the oracle logged those as branches, and a counterexample the shrinker had
    # confirmed no longer replayed once other cases filled the memo.
    from laws.separability import low_rank_truncation as lrt
    from verify.engine import ties
    logs = []
    for _ in range(2):  # the first computes the SVD, the second finds it memoized
        with mpmath.workprec(113), ties.recording() as log:
            # fresh mpf numbers on each evaluation, as the oracle converts its values
            A = np.array([[mpmath.mpf(x) for x in row] for row in ([0, 0], [1, 0], [0, 2])],
                         dtype=object)
            P, Q = np.zeros((3, 1), dtype=object), np.zeros((1, 2), dtype=object)
            lrt._lhs(A, P, Q, [mpmath.mpf(1), mpmath.mpf(0)], 1)
        logs.append(log)
    assert len(logs[0]) == len(logs[1]) == 1 and ties.agree(*logs)


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
    assert r["verdict"] == "refuted", r["reason"]
    assert replays(planted, r["counterexample"])


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


def test_barnes_hut_compares_enough_cases_inside_the_opening_angle(results):
    # three cases in four fall outside θ < 1; they are drawn again, not counted
    r = results["barnes_hut.monopole_bound"]
    assert r["cases"] == 200 and r["reason"]


def test_asymmetric_force_counterexample_replays(results):
    law = REGISTRY["newton_third_law.asymmetric_force"]
    assert law.teaches == "newton_third_law.antisymmetric"
    assert replays(law, results["newton_third_law.asymmetric_force"]["counterexample"])


def test_exact_twiddles_agree_with_cos_and_sin():
    import math
    from laws.symmetry import real_fft_symmetry as fft
    with mpmath.workprec(80):
        for N in (4, 6, 8, 12):
            for m in range(N):
                d = 360 * m // N
                c = MP.rebind(fft.cos_deg)(d)
                s = MP.rebind(fft.sin_deg)(d)
                assert abs(c - math.cos(2 * math.pi * m / N)) < 1e-15
                assert abs(s - math.sin(2 * math.pi * m / N)) < 1e-15


def test_permutation_instances_generate_the_symmetric_group():
    from itertools import permutations
    for law_id in ("attention_permutation.queries", "attention_permutation.keys_values"):
        gens = [inst["perm"] for inst in REGISTRY[law_id].instances]
        n = len(gens[0])
        group = {tuple(range(n))}
        frontier = list(group)
        while frontier:
            p = frontier.pop()
            for g in gens:
                q = tuple(p[g[i]] for i in range(n))
                if q not in group:
                    group.add(q)
                    frontier.append(q)
        assert group == set(permutations(range(n)))


def test_monopole_bound_is_nearly_attained_by_an_aligned_pair():
    # Two equal masses on the line of sight: the error is about 3Ms²/d⁴, the bound's
    # leading term, so the bound is tight to leading order and is not vacuous.
    from laws.symmetry import barnes_hut as bh
    law = REGISTRY["barnes_hut.monopole_bound"]
    with mpmath.workprec(120):
        eps = mpmath.mpf(1) / 100
        bodies = [(mpmath.mpf(0), mpmath.mpf(0), eps, mpmath.mpf(1)),
                  (mpmath.mpf(0), mpmath.mpf(0), -eps, mpmath.mpf(1)),
                  (mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(1) / 10**30)]
        r = [mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(1)]
        exact = MP.rebind(bh.exact)(*bodies, r)
        mono = MP.rebind(bh.monopole)(*bodies, r)
        bound = MP.rebind(bh.monopole_bound)(*bodies, r)
        ratio = abs(exact[2] - mono[2]) / bound[2]
        assert mpmath.mpf("0.9") < ratio <= 1
        assert oracle.preconditions_hold(law, bodies + [r])


def test_planted_shift_in_the_wrong_direction_is_refuted():
    from laws.symmetry import conv_translation as ct
    good = REGISTRY["conv_translation.shift"]
    planted = dataclasses.replace(
        good, instances=({"N": 3, "K": 2, "k": 1},),
        rhs=lambda x, w, N, K, k: ct.shift(ct.circular_conv(x, w), -k))
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])


def test_chunked_fold_reaches_64():
    law = laws.REGISTRY["chunked_fold.equals_fold"]
    assert max(inst["n"] for inst in law.instances) >= 64


UNBOUNDED_HOMOMORPHISMS = ["sum", "count", "mean", "max", "welford", "pooled_variance",
                           "online_softmax", "flash_state", "linear_recurrence"]


@pytest.mark.slow
@pytest.mark.parametrize("family", UNBOUNDED_HOMOMORPHISMS)
def test_homomorphism_proved_for_every_n_by_induction(results, family):
    law = laws.REGISTRY[f"{family}.homomorphism"]
    assert law.induction
    r = results[law.id]
    assert r["verdict"] == "proved" and "induction on n" in r["method"], r


OTHER_HOMOMORPHISMS = sorted(law.id for law in REGISTRY
                             if law.id.endswith(".homomorphism") and not law.induction)


@pytest.mark.slow
@pytest.mark.parametrize("law_id", OTHER_HOMOMORPHISMS)
def test_other_homomorphisms_are_proved_bounded(results, law_id):
    assert results[law_id]["verdict"] == "proved-bounded", results[law_id]


def test_a_wrong_abstraction_leaves_the_homomorphism_bounded():
    import dataclasses
    from laws.associativity import moments
    forgetful = dataclasses.replace(moments.WELFORD.induction,
                                    alpha=lambda s: (s[0], s[1] / s[0], s[2]))
    monoid = dataclasses.replace(moments.WELFORD, induction=forgetful)
    law = next(x for x in monoid.laws() if x.id.endswith(".homomorphism"))
    r = check_law(law, floats=False)
    assert r["verdict"] == "proved-bounded" and "no unbounded proof" in r["reason"]


def test_sum_is_not_exact_in_float32_and_the_counterexample_replays():
    law = laws.REGISTRY["sum.associative"]
    v = float_verdict(law, "float32")
    assert v["exact"] is False
    a, b, c = (np.float32(x) for x in v["counterexample"]["bindings"].values())
    assert (a + b) + c != a + (b + c)


def test_max_is_exact_in_every_format():
    law = laws.REGISTRY["max.associative"]
    for fmt in ("float16", "bfloat16", "float32", "float64"):
        v = float_verdict(law, fmt)
        assert v["exact"] is True and v["cases"] > 1000


def test_pooled_variance_loses_accuracy_where_welford_does_not():
    # The cancellation rows have |mean| / spread = κ ≤ 10⁴. Welford's variance error
    # grows like κ·u, the sum-of-squares formula's like κ²·u.
    pooled = float_verdict(laws.REGISTRY["pooled_variance.homomorphism"], "float32",
                           {"n": 4})
    welford = float_verdict(laws.REGISTRY["welford.homomorphism"], "float32", {"n": 4})
    kappa = 1e4
    assert welford["max_relative_error_in_u"]["lhs"] < 10 * kappa
    assert (pooled["max_relative_error_in_u"]["lhs"]
            > 1000 * welford["max_relative_error_in_u"]["lhs"])


def test_registry_rejects_a_malformed_law():
    from laws.core import Law, Property, Registry, Var, SEARCH
    reg = Registry()
    reg.add(Law(id="Bad", property=Property.SYMMETRY, statement="x", licenses="y",
                vars=(Var("a"),), lhs=lambda a: a, rhs=lambda a: a, method=SEARCH))
    with pytest.raises(ValueError, match="family.law.*\n.*must say why"):
        reg.check()
