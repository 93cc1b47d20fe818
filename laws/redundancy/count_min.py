"""Count-Min sketch: d rows of w counters, each item added to one counter per row (by a
hash of the item); the estimate is the row minimum. It never underestimates (a proof,
for every hash), overestimates by at most εN with probability ≥ 1 − δ when w = ⌈e/ε⌉
and d = ⌈ln(1/δ)⌉ (a statistical check), and fails both when counts can be negative or
the sketch is too narrow."""
import math

import numpy as np
import triton.language as tl

from ..core import FAILS, PROBABILITY, PROBABILISTIC, Law, Property, Randomized, Var

ITEMS = 3   # distinct items in the symbolic stream; hashes of two rows into 4 columns


def _sym_vars(domain):
    return (Var("c", (ITEMS,), domain, tuple_state=False),
            Var("h0", (ITEMS,), "small", tuple_state=False),
            Var("h1", (ITEMS,), "small", tuple_state=False))


def sketch_estimate(c, h0, h1, x=0):
    """The row minimum for item x: row r's counter h_r(x) holds Σ_i c_i over the items
    hashed to it (x itself included)."""
    rows = [sum(tl.where(h[i] == h[x], c[i], 0) for i in range(ITEMS)) for h in (h0, h1)]
    return min(rows)


NEVER_UNDERESTIMATES = Law(
    id="count_min.never_underestimates", property=Property.REDUNDANCY,
    statement="c ∈ ℕⁿ, any hashes h_r ⇒ min_r Σ_{i: h_r(i) = h_r(x)} c_i ≥ c_x",
    licenses="answer frequency queries from d·w counters instead of one per distinct "
             "item, never reporting less than the true count (Count-Min sketches for "
             "heavy hitters and approximate top-K in stream processors, network "
             "monitoring, Redis's CMS)",
    vars=_sym_vars("natural"),
    lhs=lambda c, h0, h1: [sketch_estimate(c, h0, h1) >= c[0]],
    rhs=lambda c, h0, h1: [True],
    bounded_by=f"{ITEMS} distinct items, 2 rows of 4 counters, every hash assignment "
               "(symbolic), counts symbolic naturals",
    float_check=False, references=(),
    doc="Every row's counter for x holds c_x plus the counts of the items that collide "
        "with x, all ≥ 0, so every row, and their minimum, is at least c_x. Proved by z3 "
        "over ℤ for every hash assignment of 3 items into 2 rows of 4 counters. It is "
        "the reason the sketch reports heavy hitters with no false negatives. Needs "
        "nonnegative updates (the anti-law count_min.with_deletions).")

WITH_DELETIONS = Law(
    id="count_min.with_deletions", property=Property.REDUNDANCY, expect=FAILS,
    statement="the same with counts in ℤ (a stream with deletions): min_r … ≥ c_x",
    licenses="nothing: with negative updates a colliding item can cancel x's count in "
             "every row (the general turnstile model needs the median of Count-Sketch or "
             "Count-Min's two-sided bound instead)",
    vars=_sym_vars("integer"),
    lhs=lambda c, h0, h1: [sketch_estimate(c, h0, h1) >= c[0]],
    rhs=lambda c, h0, h1: [True], teaches="count_min.never_underestimates",
    float_check=False,
    doc="One item with a negative net count colliding with x in every row pulls the "
        "minimum below c_x.")

# The stream for the statistical check: 12 items, N = 60 (a skewed, Zipf-like profile).
STREAM = (20, 10, 7, 5, 4, 3, 3, 2, 2, 2, 1, 1)
EPS, DELTA = 0.25, 0.1


def _width_depth(eps, delta):
    return math.ceil(math.e / eps), math.ceil(math.log(1 / delta))


def _hashes(width, depth):
    def draw(rng, n):
        """Fully random hashes (stronger than the pairwise independence the bound
        needs): one column per item and row, for each of n sketches."""
        return rng.integers(0, width, size=(n, depth, len(STREAM)))
    return draw


def within_bound(c, x, randomness):
    """For each sketch drawn: estimate(x) − c_x ≤ ε·N."""
    counts = np.asarray(c, dtype=np.int64)
    h = randomness
    hit = h == h[:, :, [x]]                               # collides with x, per row
    est = (hit * counts).sum(axis=2).min(axis=1)
    return est - counts[x] <= EPS * counts.sum()


def _prob_vars():
    return (Var("c", (len(STREAM),), "natural", tuple_state=False), Var("x", (), "natural"))


W_OK, D_OK = _width_depth(EPS, DELTA)

OVERESTIMATE_BOUND = Law(
    id="count_min.overestimate_bound", property=Property.REDUNDANCY,
    method=PROBABILISTIC,
    statement="w = ⌈e/ε⌉, d = ⌈ln(1/δ)⌉ ⇒ P[estimate(x) ≤ c_x + εN] ≥ 1 − δ "
              f"(ε = {EPS}, δ = {DELTA}: w = {W_OK}, d = {D_OK})",
    licenses="size a Count-Min sketch from the error wanted: O(ln(1/δ)/ε) counters, "
             "independent of the number of distinct items (approximate heavy hitters "
             "when exact ranking is not needed, the book's streaming top-K)",
    vars=_prob_vars(), lhs=within_bound, rhs=lambda c, x: None,
    randomized=Randomized(draw=_hashes(W_OK, D_OK), claim=PROBABILITY, p=1 - DELTA,
                          points=((STREAM, 11), (STREAM, 0)), draws=4000,
                          confidence=0.999),
    float_check=False,
    doc="Cormode and Muthukrishnan's bound: in one row the expected overcount of x is at "
        "most (N − c_x)/w ≤ εN/e, so by Markov's inequality it exceeds εN with "
        "probability ≤ 1/e; the d rows are independent, so all exceed it with "
        "probability ≤ e^(−d) ≤ δ. Checked statistically (the claim is about random "
        "hashes): 4000 sketches with fully random hashes, for the rarest and the most "
        "frequent item of a skewed 12-item stream (N = 60), Hoeffding's lower bound on "
        "the probability at confidence 0.999. It promises the bound at these points; "
        "the proof in words covers every stream.")

TOO_NARROW = Law(
    id="count_min.too_narrow", property=Property.REDUNDANCY, method=PROBABILISTIC,
    expect=FAILS,
    statement=f"one row of ⌈1/ε⌉ counters gives P[estimate(x) ≤ c_x + εN] ≥ 1 − δ "
              f"(ε = {EPS}, δ = {DELTA})",
    licenses="nothing: with w = 1/ε the expected overcount is already about εN, so it "
             "exceeds εN about half the time; the e in e/ε and the ln(1/δ) rows are what "
             "make the bound hold with probability 1 − δ",
    vars=_prob_vars(), lhs=within_bound, rhs=lambda c, x: None,
    randomized=Randomized(draw=_hashes(math.ceil(1 / EPS), 1), claim=PROBABILITY,
                          p=1 - DELTA, points=((STREAM, 11),), draws=4000,
                          confidence=0.999),
    teaches="count_min.overestimate_bound", float_check=False,
    doc="A sketch of 4 counters in one row for the rarest item of the same stream.")

LAWS = [NEVER_UNDERESTIMATES, WITH_DELETIONS, OVERESTIMATE_BOUND, TOO_NARROW]
