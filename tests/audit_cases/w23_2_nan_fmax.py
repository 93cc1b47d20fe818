# expect: kind=binary commutative=proved associative=refuted idempotent=refuted
# np.fmax ignores a NaN argument: the larger root where both exist, the one root where
# one does, NaN where neither does; the same for both orders.
import numpy as np


def f(a, b):
    return np.fmax(np.sqrt(a), np.sqrt(b))
