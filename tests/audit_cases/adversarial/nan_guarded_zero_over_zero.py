# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# 1 on the diagonal, (a − b)/(a − b) = 1 off it: the constant 1. Assuming a − b ≠ 0
# everywhere leaves f(a, a) with no domain; really f(2, 2) = 1.
def f(a, b):
    if a == b:
        return 1.0
    return (a - b) / (a - b)


WITNESS = {
    "identity": [(1, 2), (0, 2), ("inf", 2), ("-inf", 2)],
    "idempotent": (2,),
}
