# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# int(a) + int(b), truncating toward 0.
def f(a, b):
    return int(a) + int(b)


WITNESS = {
    "identity": [(0, "1/2"), (1, "1/2")],
    "idempotent": ("1/2",),
}
