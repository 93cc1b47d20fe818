# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Chan's merge whose empty-left path adds one to the count: off by one only when
# n = 0, which is exactly where the identity is used.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if na == 0:
        return nb + 1, mb, qb
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((0, 0, 0), (1, 0, 0), (1, 2, 0)),
    "commutative": ((0, 0, 0), (1, 0, 0)),
    "identity": [((0, 0, 0), (1, 0, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
