# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Near miss of Chan's guarded merge: the empty-left guard returns a (the empty state)
# instead of b. Not associative: with a = (1, 0, 0), b = (0, 0, 0), c = (1, 1, 0),
# f(f(a, b), c) merges a and c while f(a, f(b, c)) = f(a, b) = a.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if na == 0:
        return a
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "associative": ((1, 0, 0), (0, 0, 0), (1, 1, 0)),
    "commutative": ((0, 1, 0), (1, 0, 0)),
    "identity": [((0, 0, 0), (0, 1, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
