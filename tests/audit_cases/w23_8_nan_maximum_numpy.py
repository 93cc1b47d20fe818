# expect: kind=binary commutative=proved associative=proved idempotent=refuted
# np.maximum propagates the NaN of 0·∞ from either argument: symmetric, and associative
# (NaN wherever an argument is 0, +∞ where one is positive, −∞ where all are negative).
import math

import numpy as np


def f(a, b):
    return np.maximum(a * math.inf, b * math.inf)
