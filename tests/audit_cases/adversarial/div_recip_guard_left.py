# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# a·(1/b)·b where b ≠ 0, a where b = 0: the left projection everywhere.
def f(a, b):
    return a * (1 / b) * b if b != 0 else a


WITNESS = {
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2), ("-inf", 1), ("inf", 1)],
}
