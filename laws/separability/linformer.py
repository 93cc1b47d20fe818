"""Linformer: keys and values projected along the sequence (here: mean-pooled over
blocks) before attention, with an error bound in the projection's distortion of the
scores; and the claim that the projection is exact."""
import math

from ..core import BOUNDED, FAILS, SEARCH, Law, Property, Var

N, D, BLOCK = 4, 2, 2   # keys, their dimension, tokens pooled per projected key


def _vars():
    return (Var("q", (D,), tuple_state=False), Var("K", (N, D)),
            Var("v", (N,), tuple_state=False))


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _softmax_average(scores, values):
    m = max(scores)
    p = [math.exp(s - m) for s in scores]
    return sum(pj * vj for pj, vj in zip(p, values)) / sum(p)


def full(q, K, v):
    return _softmax_average([_dot(q, K[j]) for j in range(N)], list(v))


def projected(q, K, v):
    """E·K and E·v with E the k × n block-mean projection (k = n/2), then attention of q
    over the k projected keys."""
    blocks = [range(b * BLOCK, (b + 1) * BLOCK) for b in range(N // BLOCK)]
    keys = [[sum(K[j][c] for j in blk) / BLOCK for c in range(D)] for blk in blocks]
    vals = [sum(v[j] for j in blk) / BLOCK for blk in blocks]
    return _softmax_average([_dot(q, k) for k in keys], vals)


def distortion_bound(q, K, v):
    """(e^{2δ} − 1)/2 · (max v − min v), δ = max_j |q·k_j − q·(EK)_{block(j)}|: how far
    the projection moves any score from the one it replaces."""
    pooled = [sum(_dot(q, K[i]) for i in range(b * BLOCK, (b + 1) * BLOCK)) / BLOCK
              for b in range(N // BLOCK)]
    delta = max(abs(_dot(q, K[j]) - pooled[j // BLOCK]) for j in range(N))
    return (math.exp(2 * delta) - 1) / 2 * (max(v) - min(v))


_REASON = ("the scores q·k are products of variables inside exp, which the z3 encoding "
           "of exp cannot take (its exponents must be linear); the searcher compares "
           "both sides with mpmath at 113 and 177 bits")

DISTORTION_BOUND = Law(
    id="linformer.distortion_bound", property=Property.SEPARABILITY, exactness=BOUNDED,
    method=SEARCH,
    statement="|attn(q, K, v) − attn(q, EK, Ev)| ≤ (e^{2δ} − 1)/2·(max v − min v), "
              "δ = max_j |q·k_j − q·(EK)_{b(j)}|, E the block-mean projection",
    licenses="attend over k projected keys and values instead of n (O(n·k) instead of "
             "O(n²)), with an error that vanishes as the projection preserves the scores: "
             "Linformer (learned E, a Johnson–Lindenstrauss argument for δ), pooled-key "
             "attention in Funnel-Transformer and Nyströmformer-style landmarks",
    vars=_vars(), lhs=full, rhs=projected, error_bound=distortion_bound,
    bounded_by=f"n = {N} keys of dimension {D}, k = {N // BLOCK} projected keys (mean of "
               f"{BLOCK} consecutive), one query, one output column",
    reason=_REASON, float_check=False,
    doc="Derivation. Scores are linear in the key, so q·(EK)_b is the mean of the block's "
        "scores, and with blocks of equal size the projected attention equals attention "
        "over all n positions with each score s_j replaced by its block's mean s̄_b(j), "
        "|s_j − s̄_b(j)| ≤ δ. Each weight then changes by a factor within e^{±2δ}, so "
        "Σ|p′ − p| ≤ e^{2δ} − 1, and since Σ(p′ − p) = 0 the output moves by at most "
        "half that times the range of the values. Tested (not proved) against mpmath. "
        "It is exact when every block's scores are equal (δ = 0). Does not cover "
        "learned or random projections of unequal weights (the reduction to n positions "
        "needs equal blocks; Linformer's own bound is a JL probability statement), nor "
        "multiple output columns (each is an independent copy).")

EXACT = Law(
    id="linformer.exact", property=Property.SEPARABILITY, expect=FAILS,
    statement="attn(q, K, v) = attn(q, EK, Ev) (the projection claimed exact)",
    licenses="nothing: projecting keys and values is an approximation, exact only when "
             "the projection does not move the scores",
    vars=_vars(), lhs=full, rhs=projected, method=SEARCH, reason=_REASON,
    teaches="linformer.distortion_bound", float_check=False,
    doc="Two keys of a block with different scores (and different values) already make "
        "the pooled attention differ.")

LAWS = [DISTORTION_BOUND, EXACT]
