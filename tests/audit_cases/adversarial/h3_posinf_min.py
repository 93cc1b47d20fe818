# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown identity=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# min on the reals (max(a, b) − 1 < max(a, b) always); at a = +∞ the test fails and
# f(∞, 6) = ∞ (the other operand above 5), so +∞ is no identity of this min.
def f(a, b):
    hi = max(a, b)
    if hi - 1 < hi or min(a, b) <= 5:
        return min(a, b)
    return a


WITNESS = {
    "identity": [("inf", 6), (0, 1), ("-inf", 3)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
