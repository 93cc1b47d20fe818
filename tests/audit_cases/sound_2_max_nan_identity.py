# expect: kind=binary associative=proved commutative=proved idempotent=proved identity=unknown|refuted
# max written with abs: (−∞ + 3 + |−∞ − 3|) / 2 is ∞ − ∞ = NaN, so −∞ is no identity.
def f(a, b):
    return (a + b + abs(a - b)) / 2
