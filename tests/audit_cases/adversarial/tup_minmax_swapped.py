# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# (min, max) with the components crossed: min(a.lo, b.hi), max(a.hi, b.lo).
def merge(a, b):
    return min(a[0], b[1]), max(a[1], b[0])


WITNESS = {
    "associative": ((0, 0), (0, 0), (1, 0)),
    "commutative": ((0, 1), (1, 0)),
    "identity": [(("inf", "-inf"), (0, 1))],
    "idempotent": ((1, 0),),
}
