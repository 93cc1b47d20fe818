# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown identity=refuted|unknown
# b·0 is 0 for real b, NaN for b = −∞: f(6, −∞) = 5 (a above 5), so −∞ is no right
# identity.
def f(a, b):
    if b * 0 != 0 and a > 5:
        return a - 1
    return max(a, b)


WITNESS = {
    "identity": [("-inf", 6), (0, -1), ("inf", 6)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
