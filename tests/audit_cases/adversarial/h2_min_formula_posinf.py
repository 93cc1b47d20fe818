# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# min(a, b) = (a + b − |a − b|)/2; +∞ would be its identity, but (∞ + 3 − ∞)/2 is NaN.
def f(a, b):
    return (a + b - abs(a - b)) / 2


WITNESS = {
    "identity": [("inf", 3), (0, 1), ("-inf", 3)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
