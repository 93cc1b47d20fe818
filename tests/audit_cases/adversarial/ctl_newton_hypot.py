# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# Three Newton steps towards √(a² + b²) from 1: rational, close, not exact.
def f(a, b):
    s = a * a + b * b
    x = 1
    for _ in range(3):
        x = (x + s / x) / 2
    return x


WITNESS = {
    "associative": (0, 0, 3),
    "identity": [(0, 3), (1, 0)],
    "idempotent": (1,),
}
