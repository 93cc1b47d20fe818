"""The combines of the associativity family, written once.

Each is a ``@triton.jit`` function over scalars (tuple states passed unpacked, the way
``tl.reduce`` and ``tl.associative_scan`` call them). Kernels in ``impls/`` call these
very functions; the laws in this package prove them, through the checker's
interpretations of the same source.
"""
import triton
import triton.language as tl


@triton.jit
def add(a, b):
    return a + b


@triton.jit
def maximum(a, b):
    return tl.maximum(a, b)


@triton.jit
def online_softmax(a_m, a_s, b_m, b_s):
    """(m, s) with s = Σ exp(x − m): rescale both sums to the larger max.
    A fully masked state (−∞, 0) stays finite: the shift is 0 when both maxima are −∞."""
    m = tl.maximum(a_m, b_m)
    shift = tl.where(m == -float("inf"), 0.0, m)
    return m, a_s * tl.exp(a_m - shift) + b_s * tl.exp(b_m - shift)


@triton.jit
def welford(a_n, a_mean, a_m2, b_n, b_mean, b_m2):
    """(count, mean, M2) merge of Chan et al.; an empty side (count 0) is the identity."""
    n = a_n + b_n
    safe_n = tl.where(n == 0, 1.0, n)
    delta = b_mean - a_mean
    mean = a_mean + delta * (b_n / safe_n)
    m2 = a_m2 + b_m2 + delta * delta * (a_n * b_n / safe_n)
    return n, mean, m2


@triton.jit
def linear_recurrence(a_a, a_b, b_a, b_b):
    """h ↦ a·h + b composed: first (a, b) then (a', b') is (a·a', a'·b + b')."""
    return a_a * b_a, b_a * a_b + b_b


@triton.jit
def argmax(a_v, a_i, b_v, b_i):
    """Larger value wins; on equal values the lower index wins."""
    take_b = (b_v > a_v) | ((b_v == a_v) & (b_i < a_i))
    return tl.where(take_b, b_v, a_v), tl.where(take_b, b_i, a_i)


@triton.jit
def flash_state(a_m, a_l, a_o, b_m, b_l, b_o):
    """FlashAttention's running state (row max m, normalizer l, unnormalized output o):
    both sides rescaled to the larger max. ``o`` may be a block of output columns
    (shapes broadcast), each column an independent instance of the same law."""
    m = tl.maximum(a_m, b_m)
    shift = tl.where(m == -float("inf"), 0.0, m)
    alpha = tl.exp(a_m - shift)
    beta = tl.exp(b_m - shift)
    return m, a_l * alpha + b_l * beta, a_o * alpha + b_o * beta
