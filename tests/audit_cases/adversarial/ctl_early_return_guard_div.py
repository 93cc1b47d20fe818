# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=proved|tested|unknown additively_separable=proved|tested|unknown
# a where b = 0, a·b/b otherwise: the left projection.
def f(a, b):
    if b == 0:
        return a
    return a * b / b


WITNESS = {
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 2)],
}
