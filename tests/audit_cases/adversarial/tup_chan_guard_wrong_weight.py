# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Near miss of Chan's guarded merge: the mean moves by d·na/n instead of d·nb/n.
# Commutative where both counts are nonzero (both orders give (na·mb + nb·ma)/n), but
# two empty states with different means still swap; not associative.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * na / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((1, 0, 0), (1, 1, 0), (1, 3, 0)),
    "commutative": ((0, 1, 0), (0, 2, 0)),
    "identity": [((0, 0, 0), (0, 1, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
