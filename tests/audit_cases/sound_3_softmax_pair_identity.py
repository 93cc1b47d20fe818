# expect: kind=binary commutative=proved identity=proved identity.element=["-inf",0]
# Online-softmax state with a masked-row guard: exp(−∞ − m) is exactly 0 both ways.
import math


def f(a, b):
    m = max(a[0], b[0])
    shift = 0.0 if m == -math.inf else m
    return m, a[1] * math.exp(a[0] - shift) + b[1] * math.exp(b[0] - shift)
