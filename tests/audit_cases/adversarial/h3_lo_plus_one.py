# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown identity=refuted|unknown
# max(a, b) for every real pair: lo + 1 == lo never holds for a real lo. It holds for
# lo = −∞, so f(−∞, 6) = 7 (above 5 only, where no small check point looks): −∞ is no
# identity, and max has no real one. A finite symbol standing for −∞ answers the test
# the other way.
def f(a, b):
    lo = min(a, b)
    if lo + 1 == lo and max(a, b) > 5:
        return max(a, b) + 1
    return max(a, b)


WITNESS = {
    "identity": [("-inf", 6), (0, -1), ("inf", 6)],
    "separable": (1, 2, 1, 2),
    "additively_separable": (1, 2, 1, 2),
}
