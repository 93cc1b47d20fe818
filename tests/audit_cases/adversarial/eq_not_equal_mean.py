# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# (a + b)/2 written with a diagonal branch.
def f(a, b):
    return (a + b) / 2 if a != b else a


WITNESS = {
    "associative": (0, 0, 4),
    "identity": [(0, 2), (1, 0), ("-inf", 1), ("inf", 1)],
    "separable": (1, 2, 1, 2),
}
