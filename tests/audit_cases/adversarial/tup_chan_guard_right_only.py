# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Near miss of Chan's guarded merge: only the right count is guarded. An empty left
# state goes through the formula, which takes b's count and mean but adds a's M2:
# a = (1, 0, 0), b = (0, 0, 1), c = (1, 0, 0) give M2 = 0 on the left grouping and 1
# on the right.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((1, 0, 0), (0, 0, 1), (1, 0, 0)),
    "commutative": ((0, 1, 0), (0, 2, 0)),
    "identity": [((0, 0, 0), (0, 1, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
