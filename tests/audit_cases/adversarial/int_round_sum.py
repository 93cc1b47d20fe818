# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# round(a + b), halves to even: f(f(1/2, 1/4), 1/4) = 1, f(1/2, f(1/4, 1/4)) = 0.
def f(a, b):
    return round(a + b)


WITNESS = {
    "associative": ("1/2", "1/4", "1/4"),
    "identity": [(0, "1/2"), (1, 0)],
    "idempotent": ("1/3",),
}
