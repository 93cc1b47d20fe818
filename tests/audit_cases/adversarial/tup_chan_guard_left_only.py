# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Near miss of Chan's guarded merge: only the left count is guarded. An empty right
# state then goes through the formula, which keeps n and the mean but adds its M2:
# a = (1, 0, 0), b = (0, 0, 1), c = (1, 0, 0) give M2 = 1 on the left grouping and 0
# on the right.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if na == 0:
        return b
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((1, 0, 0), (0, 0, 1), (1, 0, 0)),
    "commutative": ((0, 1, 0), (0, 2, 0)),
    "identity": [((0, 0, 0), (0, 1, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
