# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# Over the reals (a, b ≥ 0) this is max(√a, √b), which commutes; but Python's max keeps
# its first argument unless the second is greater, and nothing is greater than NaN:
# f(−1, 1) = max(nan, 1) = nan while f(1, −1) = max(1, nan) = 1.
import numpy as np


def f(a, b):
    return max(np.sqrt(a), np.sqrt(b))
