"""Online softmax and FlashAttention's running state, and the merge that forgets to
rescale."""
import triton.language as tl

from ..core import FAILS, Law, Property, Var
from ..monoid import Induction, Monoid
from . import combines

NEG_INF = float("-inf")


def _online(a, b):
    return combines.online_softmax(a[0], a[1], b[0], b[1])


def _log_sum_exp(xs):
    return tl.log(sum(tl.exp(x) for x in xs))


ONLINE_SOFTMAX = Monoid(
    family="online_softmax", combine=_online, identity=(NEG_INF, 0.0),
    state=Var("s", (2,), ("real", "nonneg"), labels=("m", "d")),
    lift=lambda x: (x, 1.0), lower=lambda s: s[0] + tl.log(s[1]), spec=_log_sum_exp,
    statement="(m, d) ⊕ (m', d') = (M, d·e^(m−M) + d'·e^(m'−M)), M = max(m, m')",
    commutative=True, kernels=("softmax",), references=("milakov2018",),
    induction=Induction(
        summary=Var("σ", (2,), ("real", "positive"), labels=("max", "Z")),
        empty=(NEG_INF, 0.0),
        update=lambda s, x: (tl.maximum(s[0], x), s[1] + tl.exp(x)),
        finish=lambda s: tl.log(s[1]), alpha=lambda s: (s[0], s[1] * tl.exp(-s[0])),
        about="log Z with Z = Σ exp(x) (the definition of log-sum-exp)"),
    licenses="softmax normalizer in one streaming pass over chunks (Milakov & "
             "Gimelshein's online softmax; every fused softmax and FlashAttention)",
    doc="The running (max, scaled sum) of a softmax row. Lowered to log-sum-exp. Does "
        "not cover float overflow of the scaled sum (the float verdicts and the "
        "softmax kernel's certificate do).")


def _no_rescale(a, b):
    m = tl.maximum(a[0], b[0])
    return m, a[1] * tl.exp(a[0] - m) + b[1]


SOFTMAX_NO_RESCALE = Law(
    id="online_softmax.no_rescale", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="(m, d) ⊕ (m', d') = (M, d·e^(m−M) + d') regroups (the right sum not rescaled)",
    licenses="nothing: a merge that rescales only one side is wrong whenever the right "
             "chunk's max is not the overall max",
    vars=(Var("a", (2,), ("real", "nonneg"), labels=("m", "d")),
          Var("b", (2,), ("real", "nonneg"), labels=("m", "d")),
          Var("c", (2,), ("real", "nonneg"), labels=("m", "d"))),
    lhs=lambda a, b, c: _no_rescale(_no_rescale(a, b), c),
    rhs=lambda a, b, c: _no_rescale(a, _no_rescale(b, c)),
    teaches="online_softmax.associative", combine=_no_rescale)


def _flash(a, b):
    return combines.flash_state(a[0], a[1], a[2], b[0], b[1], b[2])


def _attention_row(xs):
    # Data are (score, value) pairs; the answer is Σ softmax(score)·value.
    z = sum(tl.exp(x[0]) for x in xs)
    return sum(tl.exp(x[0]) * x[1] for x in xs) / z


FLASH_STATE = Monoid(
    family="flash_state", combine=_flash, identity=(NEG_INF, 0.0, 0.0),
    state=Var("s", (3,), ("real", "nonneg", "real"), labels=("m", "l", "o")),
    datum=Var("x", (2,), ("real", "real"), labels=("score", "value")),
    lift=lambda x: (x[0], 1.0, x[1]), lower=lambda s: s[2] / s[1], spec=_attention_row,
    statement="(m, l, o) ⊕ (m', l', o') = (M, l·α + l'·β, o·α + o'·β), "
              "α = e^(m−M), β = e^(m'−M)",
    commutative=True, kernels=("attention", "paged_attention", "ring_attention"),
    references=("dao2022",),
    homomorphism_sizes=(1, 2, 3),
    induction=Induction(
        summary=Var("σ", (3,), ("real", "positive", "real"), labels=("max", "Z", "W")),
        empty=(NEG_INF, 0.0, 0.0),
        update=lambda s, x: (tl.maximum(s[0], x[0]), s[1] + tl.exp(x[0]),
                             s[2] + tl.exp(x[0]) * x[1]),
        finish=lambda s: s[2] / s[1],
        alpha=lambda s: (s[0], s[1] * tl.exp(-s[0]), s[2] * tl.exp(-s[0])),
        about="W / Z with Z = Σ exp(score), W = Σ exp(score)·value (attention's definition)"),
    licenses="attention over key blocks streamed through SRAM without the n×n score "
             "matrix (FlashAttention 1–3, PyTorch's scaled_dot_product_attention)",
    doc="FlashAttention's running state for one query row and one output column (each "
        "column is an independent copy of the same law). Does not cover the float "
        "error of the kernel (its certificate does).")

LAWS = [ONLINE_SOFTMAX, SOFTMAX_NO_RESCALE, FLASH_STATE]
