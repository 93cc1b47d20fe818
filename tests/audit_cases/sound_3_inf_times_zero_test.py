# expect: kind=binary commutative=proved identity=unknown|refuted
# lo · 0 == 0 at every finite lo; at −∞ it is NaN, the test fails, f(−∞, 6) = −∞.
def f(a, b):
    lo = min(a, b)
    return max(a, b) if lo * 0 == 0 else lo
