# expect: kind=binary commutative=proved associative=proved idempotent=proved separable=refuted
# np.sqrt of a negative is NaN, and NaN ≠ NaN: f(a, b) = a where a ≥ b, else b, which is
# max(a, b). Deciding r == r as True makes it the left projection (not commutative);
# the test forks on the root's NaN condition a < b instead.
import numpy as np


def f(a, b):
    r = np.sqrt(a - b)
    if r == r:
        return a
    return b
