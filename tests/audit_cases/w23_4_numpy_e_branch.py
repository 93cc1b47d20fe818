# expect: kind=binary commutative=proved|tested
import numpy as np


def f(a, b):
    if np.e * 2 == 5.43656365691809:
        return a * b
    return a - b
