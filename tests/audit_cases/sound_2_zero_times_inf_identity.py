# expect: kind=binary commutative=proved identity=unknown|refuted
# 0 · (a − b) at b = −∞ is 0 · ∞ = NaN in the function, not a missing point.
def f(a, b):
    m = max(a, b)
    return m + 0 * (a - b)
