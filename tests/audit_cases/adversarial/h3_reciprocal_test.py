# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown identity=refuted|unknown
# 1/(|a| + 1) > 0 for every real a and is 0 at a = −∞: f(−∞, 6) = −∞ + 6 (b above 5).
def f(a, b):
    if 1 / (abs(a) + 1) > 0 or b <= 5:
        return max(a, b)
    return a + b


WITNESS = {
    "identity": [("-inf", 6), (0, -1), ("inf", 6)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
