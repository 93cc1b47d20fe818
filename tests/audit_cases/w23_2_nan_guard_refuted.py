# expect: kind=binary commutative=refuted associative=refuted idempotent=refuted
# np.sqrt(a − b) is NaN where a < b, and the r == r guard turns that into 0: f(a, b) is
# √(a − b) for a ≥ b and 0 below, so f(−1, 0) = 0 but f(0, −1) = 1.
import numpy as np


def f(a, b):
    r = np.sqrt(a - b)
    return r if r == r else 0.0
