"""Sliding-window attention: attending to a band of keys equals full attention with the
band masked out by −∞ scores."""
import triton.language as tl

from ..core import Law, Property, Var

NEG_INF = float("-inf")


def attention_row(scores, values):
    """Σⱼ softmax(s)ⱼ·vⱼ over the keys given, with the row max subtracted first (the
    safe softmax kernels compute)."""
    m = max(scores)
    p = [tl.exp(s - m) for s in scores]
    return sum(pj * vj for pj, vj in zip(p, values)) / sum(p)


def masked_attention_row(scores, values):
    """The specification: Σⱼ e^{sⱼ}vⱼ / Σⱼ e^{sⱼ} over every key, masked keys carrying a
    −∞ score. A −∞ score gets weight exactly 0 (exp(−∞) = 0), written out with
    ``where`` as kernels guard it: the z3 encoding of exp has no value at −∞."""
    p = [tl.where(s == NEG_INF, 0.0, tl.exp(s)) for s in scores]
    return sum(pj * vj for pj, vj in zip(p, values)) / sum(p)


def key_vars(n):
    """n keys, each a (score, value) pair: the score of this query against key j, and
    key j's value (one output column)."""
    return tuple(Var(f"k{j}", (2,), labels=("score", "value")) for j in range(n))


def band(i, n, w):
    """Keys of query i in a sliding window of w on each side."""
    lo = i - w if i - w > 0 else 0
    hi = i + w if i + w < n - 1 else n - 1
    return range(lo, hi + 1)


def local_attention(*keys, n, w, i):
    """Query i attends to its window only: the sum restricted to |i − j| ≤ w."""
    window = band(i, n, w)
    return attention_row([keys[j][0] for j in window], [keys[j][1] for j in window])


def banded_full_attention(*keys, n, w, i):
    """Query i attends to all n keys, scores outside the band set to −∞."""
    return masked_attention_row([k[0] if abs(i - j) <= w else NEG_INF
                                 for j, k in enumerate(keys)], [k[1] for k in keys])


_N, _W = 5, 1

BAND = Law(
    id="sliding_window_attention.band", property=Property.LOCALITY,
    secondary=Property.SPARSITY,
    statement="Σ_{|i−j|≤w} softmax_j(s_ij)·v_j = Σ_j softmax_j(s_ij + M_ij)·v_j, "
              "M_ij = 0 if |i − j| ≤ w else −∞",
    licenses="compute only the keys inside the window (O(n·w) instead of O(n²) scores) "
             "for local attention: Longformer's sliding window, Mistral's sliding-window "
             "attention, FlashAttention's window_size argument",
    vars=lambda n, w, i: key_vars(n),
    lhs=local_attention, rhs=banded_full_attention,
    instances=tuple({"n": _N, "w": _W, "i": i} for i in range(_N)),
    bounded_by=f"n = {_N} keys, window w = {_W} on each side, every query position "
               f"i = 0…{_N - 1} (one proof per row), one output column",
    references=("beltagy2020",),
    doc="The local side is what a kernel computes: a safe softmax (window max "
        "subtracted) over the window only. The dense side is the specification with the "
        "band mask modeled as −∞ scores, whose weight is exactly 0, written as where(s = "
        "−∞, 0, exp(s)) because the z3 encoding of exp has no value at −∞. Checked one query "
        "row at a time (row i of attention reads only row i of the scores), for every "
        "row of a 5-key sequence with w = 1, so windows clipped at both ends are "
        "included. The scores s_ij are free reals (any QKᵀ/√d); one output column (each "
        "column is an independent copy). Proved by z3 over ℝ with the exp encoding, −∞ "
        "modeled as a real below every variable. Does not cover global tokens (Longformer's), "
        "dilated windows, or floats: the dense side, written without the max shift, "
        "overflows or underflows where the windowed side does not (the float verdicts "
        "show such inputs).")

LAWS = [BAND]
