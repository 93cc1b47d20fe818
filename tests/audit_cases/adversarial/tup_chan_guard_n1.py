# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Near miss of Chan's guarded merge: the guards test for a count of 1 instead of 0, so
# a one-sample state is dropped. Not associative where a merge yields a count of 1:
# a = (2, 0, 0), b = (-1, 0, 0), c = (2, 3, 0) give f(f(a, b), c) = c (f(a, b) has count
# 1) but f(a, f(b, c)) = a (f(b, c) has count 1).
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if na == 1:
        return b
    if nb == 1:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((2, 0, 0), (-1, 0, 0), (2, 3, 0)),
    "commutative": ((1, 0, 0), (1, 1, 0)),
    "identity": [((0, 0, 0), (1, 1, 0)), ((1, 0, 0), (1, 1, 0))],
    "idempotent": ((2, 0, 0),),
}
