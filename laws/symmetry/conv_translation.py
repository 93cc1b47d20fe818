"""Translation equivariance: circular convolution commutes with circular shifts."""
from ..core import Law, Property, Var


def circular_conv(x, w):
    """y[i] = Σ_t w[t]·x[(i − t) mod N] (circular convolution, kernel length ≤ N)."""
    n = len(x)
    return [sum(w[t] * x[(i - t) % n] for t in range(len(w))) for i in range(n)]


def shift(x, k):
    """(Sᵏx)[i] = x[(i − k) mod N]."""
    n = len(x)
    return [x[(i - k) % n] for i in range(n)]


def _vars(N, K, k):
    return (Var("x", (N,), tuple_state=False), Var("w", (K,), tuple_state=False))


SHIFT = Law(
    id="conv_translation.shift", property=Property.SYMMETRY,
    statement="w ⊛ (Sᵏx) = Sᵏ(w ⊛ x) for circular convolution ⊛ and the circular "
              "shift (Sᵏx)[i] = x[(i − k) mod N]",
    licenses="one kernel serves every position (weight sharing: a convolution layer "
             "computes the same filter everywhere, and its FFT implementation "
             "diagonalizes every shift at once: cuFFT-based convolution, FNO layers)",
    vars=_vars,
    lhs=lambda x, w, N, K, k: circular_conv(shift(x, k), w),
    rhs=lambda x, w, N, K, k: shift(circular_conv(x, w), k),
    instances=({"N": 3, "K": 2, "k": 1}, {"N": 4, "K": 3, "k": 1}, {"N": 5, "K": 3, "k": 2}),
    references=("lecun1998",),
    bounded_by="N ≤ 5 samples (N = 3, kernel 2, shift 1; N = 4, kernel 3, shift 1; "
               "N = 5, kernel 3, shift 2)",
    doc="Both sides are Σ_t w[t]·x[(i − k − t) mod N]. Proved by z3 over ℝ at the listed "
        "sizes; each instance's shift k is coprime to N, so Sᵏ generates every "
        "circular shift of that N, and commuting with Sᵏ implies commuting with all of "
        "them. Does not cover zero-padded (non-circular) convolution, which "
        "is equivariant only away from the borders, nor strided or pooled layers "
        "(subsampling breaks exact equivariance).")

LAWS = [SHIFT]
