# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# (a·b) mod 7 on reals: ((1·8) mod 7)·1/2 = 1/2 but 1·((8·1/2) mod 7) = 4.
def f(a, b):
    return (a * b) % 7


WITNESS = {
    "associative": (1, 8, "1/2"),
    "identity": [(1, 8), (0, 1)],
    "idempotent": (2,),
}
