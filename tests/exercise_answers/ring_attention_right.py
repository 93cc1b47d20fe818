# expect: pass
import math


def combine(a, b):
    m = max(a[0], b[0])
    alpha, beta = math.exp(a[0] - m), math.exp(b[0] - m)
    return m, a[1] * alpha + b[1] * beta, a[2] * alpha + b[2] * beta
