# expect: kind=binary associative=unknown commutative=unknown
# np.add.at changes the module-level array in place: from the 3001st call on Python
# computes a − b (f(1, 2): 3.0, then −1.0).
import numpy as np

_COUNT = np.zeros(1)


def f(a, b):
    np.add.at(_COUNT, 0, 1.0)
    if _COUNT[0] > 3000:
        return a - b
    return a + b
