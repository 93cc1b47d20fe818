# expect: kind=binary commutative=proved|tested
# math.pi is the double 3.141592653589793: the test is true in Python, so f = a + b.
import math


def f(a, b):
    if math.pi == 3.141592653589793:
        return a + b
    return a - b
