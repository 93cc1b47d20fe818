# expect: kind=binary commutative=proved identity=unknown|refuted
# s·0 == 0 for finite s; at −∞ it is NaN, so the test fails there.
def f(a, b):
    s = min(a, b)
    return max(a, b) if s * 0 == 0 else max(a, b) + 1
