# expect: kind=binary commutative=proved associative=refuted idempotent=refuted
# The near miss of w23_2_nan_python_max: np.maximum propagates NaN from either
# argument, so both orders are NaN where a < 0 or b < 0, and equal elsewhere.
import numpy as np


def f(a, b):
    return np.maximum(np.sqrt(a), np.sqrt(b))
