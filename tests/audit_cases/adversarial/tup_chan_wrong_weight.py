# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Chan's merge with the mean moved by na/n instead of nb/n. Still commutative (both
# orders give ma + mb − the right mean), but not associative, and (0, 0, 0) no longer
# leaves a state unchanged.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    n = na + nb
    d = mb - ma
    return n, ma + d * na / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((1, 0, 0), (1, 0, 0), (1, 1, 0)),
    "identity": [((0, 0, 0), (1, 1, 0))],
    "idempotent": ((1, 1, 0),),
}
