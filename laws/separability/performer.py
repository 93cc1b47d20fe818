"""Performer (FAVOR+): positive random features whose products estimate the softmax
kernel exp(x·y) without bias, a law in expectation checked by a statistical test; and
the same features without the positive normalization exp(−|x|²/2), which are biased."""
import math

import numpy as np

from ..core import FAILS, PROBABILISTIC, Law, Property, Randomized, Var

D, M = 2, 4   # dimension of queries and keys; random features per estimate

# Points where the claim is tested: |x|, |y| ≤ 0.8, where the estimator's variance
# (exp(2|x + y|² − |x|² − |y|²)·e^{x·y}²-ish) is finite and moderate.
POINTS = (((0.5, -0.3), (0.2, 0.4)), ((0.0, 0.0), (0.6, 0.5)),
          ((-0.7, 0.1), (-0.3, -0.5)))


def _draw(rng, n):
    """n estimates, each from M independent features w ~ N(0, I_D)."""
    return rng.standard_normal((n, M, D))


def _features(x, W, normalized=True):
    """φ_w(x) = exp(w·x − |x|²/2) for each feature w (the last axis of W is D)."""
    shift = sum(c * c for c in x) / 2 if normalized else 0.0
    return np.exp(W @ np.asarray(x, dtype=np.float64) - shift)


def estimate(x, y, randomness, normalized=True):
    """(1/M)·Σ_m φ_{w_m}(x)·φ_{w_m}(y): the random-feature estimate of exp(x·y), one per
    draw."""
    return (_features(x, randomness, normalized) * _features(y, randomness, normalized)
            ).mean(axis=1)


def softmax_kernel(x, y):
    return math.exp(sum(a * b for a, b in zip(x, y)))


def _vars():
    return (Var("x", (D,), tuple_state=False), Var("y", (D,), tuple_state=False))


UNBIASED = Law(
    id="performer.unbiased", property=Property.SEPARABILITY, method=PROBABILISTIC,
    statement="E_w[φ_w(x)·φ_w(y)] = exp(x·y), φ_w(x) = exp(w·x − |x|²/2), w ~ N(0, I)",
    licenses="replace softmax(QKᵀ)V by D⁻¹φ(Q)(φ(K)ᵀV), linear in the sequence length, an "
             "unbiased estimate of each attention weight's numerator and denominator "
             "(Performer's FAVOR+ attention; random-feature attention)",
    vars=_vars(), lhs=estimate, rhs=softmax_kernel,
    randomized=Randomized(draw=_draw, points=POINTS, draws=20000, confidence=0.999),
    float_check=False,
    doc="Derivation: E[exp(w·(x + y))] = exp(|x + y|²/2) for w ~ N(0, I) (the Gaussian's "
        "moment generating function), and exp(|x + y|²/2 − |x|²/2 − |y|²/2) = exp(x·y). "
        "The derivation is exact for every x, y; the check is statistical: 20000 estimates "
        "of M = 4 features each at 3 points with |x|, |y| ≤ 0.8 (D = 2), the sample mean "
        "against exp(x·y) at confidence 0.999 (a true law is rejected on the first sample "
        "with probability ≤ 0.001, and then the independent replay decides). What this "
        "promises: no bias large enough "
        "for the test to see (the verdict states the smallest relative bias it would "
        "see). What it does not: that the estimate is accurate for a given number of "
        "features (the variance grows like exp(2|x + y|²)), nor that the normalized "
        "attention (a ratio of two unbiased estimates) is unbiased — it is not, only "
        "consistent as M grows.")

NO_POSITIVE_NORMALIZATION = Law(
    id="performer.no_positive_normalization", property=Property.SEPARABILITY,
    method=PROBABILISTIC, expect=FAILS,
    statement="E_w[exp(w·x)·exp(w·y)] = exp(x·y) (features without the factor "
              "exp(−|x|²/2))",
    licenses="nothing: without the normalization the product estimates "
             "exp(x·y + |x|²/2 + |y|²/2), biased by the norms",
    vars=_vars(), lhs=lambda x, y, randomness: estimate(x, y, randomness, normalized=False),
    rhs=softmax_kernel, teaches="performer.unbiased",
    randomized=Randomized(draw=_draw, points=POINTS, draws=20000, confidence=0.999),
    float_check=False,
    doc="E[exp(w·(x + y))] = exp(|x + y|²/2) = exp(x·y)·exp((|x|² + |y|²)/2): every "
        "weight is overestimated by a factor that depends on the query's and key's norms, "
        "which the softmax's normalization does not cancel.")

LAWS = [UNBIASED, NO_POSITIVE_NORMALIZATION]
