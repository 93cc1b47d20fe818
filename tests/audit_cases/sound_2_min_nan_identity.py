# expect: kind=binary commutative=proved identity=unknown|refuted
# min written with abs: at e = +∞ the sum is ∞ − ∞ = NaN.
def f(a, b):
    return (a + b - abs(a - b)) / 2
