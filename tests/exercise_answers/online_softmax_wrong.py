# expect: fail associative
# Rescales the left sum only.
import math


def combine(a, b):
    m = max(a[0], b[0])
    return m, a[1] * math.exp(a[0] - m) + b[1]
