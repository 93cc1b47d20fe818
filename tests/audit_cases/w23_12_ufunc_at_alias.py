# expect: kind=binary associative=unknown commutative=unknown
# np.add.at kept under another name at module level changes the module array: from the
# 3001st call on Python computes a − b (f(1, 2): 3.0, then −1.0).
import numpy as np

_COUNT = np.zeros(1)
_bump = np.add.at


def f(a, b):
    _bump(_COUNT, 0, 1.0)
    if _COUNT[0] > 3000:
        return a - b
    return a + b
