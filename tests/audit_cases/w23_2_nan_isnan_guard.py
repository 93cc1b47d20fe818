# expect: kind=binary commutative=proved associative=refuted idempotent=refuted
# math.isnan forks on the root's NaN condition (ab < 0): f is √(ab) or 0, symmetric.
# f(f(1, −1), −1) = f(0, −1) = 0 but f(1, f(−1, −1)) = f(1, 1) = 1.
import math

import numpy as np


def f(a, b):
    r = np.sqrt(a * b)
    return 0.0 if math.isnan(r) else r
