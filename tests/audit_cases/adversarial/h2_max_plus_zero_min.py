# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# max plus a term that is 0 for every real pair: 0·min(a, b). At e = −∞ it is 0·(−∞),
# NaN, so −∞ is no identity; a finite stand-in for −∞ makes the term 0.
def f(a, b):
    return max(a, b) + 0 * min(a, b)


WITNESS = {
    "identity": [("-inf", 3), (0, -1), ("inf", 3)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
