# expect: kind=binary commutative=proved associative=proved idempotent=proved separable=refuted
# 0.1 + 0.2 (folded) and X + 0.2 (computed) are the same double in Python.
X = 0.1


def f(a, b):
    return max(a, b) if X + 0.2 == 0.1 + 0.2 else a
