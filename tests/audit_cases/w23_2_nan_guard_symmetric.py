# expect: kind=binary commutative=proved associative=refuted idempotent=refuted
# The near miss of w23_2_nan_guard_refuted: where √(a − b) is NaN the guard takes
# √(b − a), so f(a, b) = √|a − b| for every a, b: commutative, with no assumption.
import numpy as np


def f(a, b):
    r = np.sqrt(a - b)
    return r if r == r else np.sqrt(b - a)
