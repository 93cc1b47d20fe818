# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
def f(a, b):
    return (a + b) // 2


WITNESS = {
    "associative": (0, 0, 3),
    "identity": [(0, 3), (1, 3)],
    "idempotent": ("1/2",),
}
