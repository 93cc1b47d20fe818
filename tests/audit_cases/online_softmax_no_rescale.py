# expect: kind=binary associative=refuted commutative=refuted
# The merge that forgets to rescale the right-hand sum.
import math


def merge(a, b):
    m = max(a[0], b[0])
    return m, a[1] * math.exp(a[0] - m) + b[1]
