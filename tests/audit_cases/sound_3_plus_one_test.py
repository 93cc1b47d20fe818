# expect: kind=binary commutative=proved identity=unknown|refuted
# lo + 1 == lo is false at every finite stand-in and true at −∞: f(−∞, 6) = 7.
def f(a, b):
    lo = min(a, b)
    hi = max(a, b)
    return hi + 1 if lo + 1 == lo else hi
