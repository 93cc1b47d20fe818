"""Linformer: keys and values projected along the sequence (here: mean-pooled over
blocks) before attention, with an error bound in the projection's distortion of the
scores; and the claim that the projection is exact."""
import triton.language as tl

from ..core import BOUNDED, FAILS, SEARCH, Law, Property, Var

N, BLOCK = 4, 2   # keys, tokens pooled per projected key


def _vars():
    """One query's half-scores u_j (the score is s_j = q·k_j = 2u_j: every real score is
    one, and block means then have integer coefficients, as the z3 encoding of exp
    needs) against the n keys, and the values (one output column). The projected key of
    a block scores q·(EK)_b = the mean of the block's scores, by linearity of q·k in k."""
    return (Var("u", (N,), tuple_state=False), Var("v", (N,), tuple_state=False))


def _scores(u):
    return [2 * x for x in u]


def _softmax_average(scores, values):
    m = max(scores)
    p = [tl.exp(x - m) for x in scores]
    return sum(pj * vj for pj, vj in zip(p, values)) / sum(p)


def _blocks():
    return [range(b * BLOCK, (b + 1) * BLOCK) for b in range(N // BLOCK)]


def full(u, v):
    return _softmax_average(_scores(u), list(v))


def projected(u, v):
    """E·K and E·v with E the k × n block-mean projection (k = n/2), then attention over
    the k projected keys: scores q·(EK)_b = mean of the block's scores."""
    s = _scores(u)
    return _softmax_average([sum(s[j] for j in blk) / BLOCK for blk in _blocks()],
                            [sum(v[j] for j in blk) / BLOCK for blk in _blocks()])


def distortion_bound(u, v):
    """(e^{2δ} − 1)/2 · (max v − min v), δ = max_j |s_j − s̄_{b(j)}|: how far the
    projection moves any score from the one it replaces."""
    s = _scores(u)
    pooled = [sum(s[j] for j in blk) / BLOCK for blk in _blocks()]
    delta = max(abs(s[j] - pooled[j // BLOCK]) for j in range(N))
    return (tl.exp(2 * delta) - 1) / 2 * (max(v) - min(v))


DISTORTION_BOUND = Law(
    id="linformer.distortion_bound", property=Property.SEPARABILITY, exactness=BOUNDED,
    method=SEARCH,
    reason="z3 does not finish within 10 s on the bound (an exponential of a maximum of "
           "absolute values, against two softmax averages); the searcher compares both "
           "sides and the bound with mpmath at 113 and 177 bits",
    statement="|attn(q, K, v) − attn(q, EK, Ev)| ≤ (e^{2δ} − 1)/2·(max v − min v), "
              "δ = max_j |q·k_j − q·(EK)_{b(j)}|, E the block-mean projection",
    licenses="attend over k projected keys and values instead of n (O(n·k) instead of "
             "O(n²)), with an error that vanishes as the projection preserves the scores: "
             "Linformer (learned E, a Johnson–Lindenstrauss argument for δ), pooled-key "
             "attention in Funnel-Transformer and Nyströmformer-style landmarks",
    vars=_vars(), lhs=full, rhs=projected, error_bound=distortion_bound,
    bounded_by=f"n = {N} keys, k = {N // BLOCK} projected keys (mean of {BLOCK} "
               "consecutive), one query's scores and one output column, free reals",
    float_check=False,
    doc="Derivation. Scores are linear in the key, so q·(EK)_b is the mean of the block's "
        "scores, and with blocks of equal size the projected attention equals attention "
        "over all n positions with each score s_j replaced by its block's mean s̄_b(j), "
        "|s_j − s̄_b(j)| ≤ δ. Each weight then changes by a factor within e^{±2δ}, so "
        "Σ|p′ − p| ≤ e^{2δ} − 1, and since Σ(p′ − p) = 0 the output moves by at most "
        "half that times the range of the values. Tested (not proved) against mpmath at "
        "n = 4, k = 2; the anti-law is refuted by z3. "
        "It is exact when every block's scores are equal (δ = 0). Does not cover "
        "learned or random projections of unequal weights (the reduction to n positions "
        "needs equal blocks; Linformer's own bound is a JL probability statement), nor "
        "multiple output columns (each is an independent copy).")

EXACT = Law(
    id="linformer.exact", property=Property.SEPARABILITY, expect=FAILS,
    statement="attn(q, K, v) = attn(q, EK, Ev) (the projection claimed exact)",
    licenses="nothing: projecting keys and values is an approximation, exact only when "
             "the projection does not move the scores",
    vars=_vars(), lhs=full, rhs=projected,
    teaches="linformer.distortion_bound", float_check=False,
    doc="Two keys of a block with different scores (and different values) already make "
        "the pooled attention differ.")

LAWS = [DISTORTION_BOUND, EXACT]
