# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# max(a, b) = (a + b + |a − b|)/2 over the reals. Its would-be identity −∞ gives
# (−∞ + 3 + ∞)/2 = NaN: NaN against 3 is a failure, not a point outside the domain.
# Max has no real identity (f(e, e − 1) = e).
def f(a, b):
    return (a + b + abs(a - b)) / 2


WITNESS = {
    "identity": [("-inf", 3), (0, -1), ("inf", 3)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
