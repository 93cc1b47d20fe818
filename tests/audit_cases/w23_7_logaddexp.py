# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=refuted
import numpy as np


def f(a, b):
    return np.logaddexp(a, b)
