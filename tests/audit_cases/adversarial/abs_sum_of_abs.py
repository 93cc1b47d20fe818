# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
def f(a, b):
    return abs(a) + abs(b)


WITNESS = {
    "identity": [(0, -1), (1, 0), ("-inf", 0), ("inf", 0)],
    "idempotent": (-1,),
    "separable": (1, 2, 0, 1),
}
