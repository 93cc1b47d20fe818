# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown identity=refuted|unknown
# a − 1 < a for every real a, not for a = −∞: f(−∞, 6) = 5 (b above 5).
def f(a, b):
    if a - 1 < a or b <= 5:
        return max(a, b)
    return b - 1


WITNESS = {
    "identity": [("-inf", 6), (0, -1), ("inf", 6)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
