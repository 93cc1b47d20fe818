# expect: kind=binary commutative=refuted idempotent=refuted|unknown
import numpy as np


def f(a, b):
    return np.clip(a + b, -1.0, 1.0) + a
