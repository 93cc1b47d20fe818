# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# (a − b)/(a − b)·a: a off the diagonal, 0/0 on it. f(a, a) is defined nowhere.
def f(a, b):
    return (a - b) / (a - b) * a


WITNESS = {
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2), ("inf", 1), ("-inf", 1)],
}
