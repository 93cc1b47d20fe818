# expect: kind=binary associative=proved commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# Chan's merge with an empty side returning the other state. Associative wherever
# defined (a merged count is never 0: n = 0 divides by zero). Not commutative when
# both counts are 0: f((0, 1, 0), (0, 2, 0)) keeps b, f of the swap keeps a. No
# identity on all real states: f(a, e) = e whenever a's count is 0.
def merge(a, b):
    na, ma, qa = a
    nb, mb, qb = b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    d = mb - ma
    return n, ma + d * nb / n, qa + qb + d * d * na * nb / n


WITNESS = {
    "commutative": ((0, 1, 0), (0, 2, 0)),
    "identity": [((0, 0, 0), (0, 1, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
