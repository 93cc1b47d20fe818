# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# Top-2 merge that forgets the left list's second value.
def merge(a, b):
    return max(a[0], b[0]), max(min(a[0], b[0]), b[1])


WITNESS = {
    "associative": ((1, 0), (1, 0), (0, 0)),
    "commutative": ((3, 2), (1, 0)),
    "identity": [(("-inf", "-inf"), (3, 2))],
    "idempotent": ((2, 1),),
}
