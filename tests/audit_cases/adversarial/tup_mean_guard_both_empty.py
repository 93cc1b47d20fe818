# expect: kind=binary associative=proved commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# (mean, count) with an empty side returning the other: a guarded division that is
# associative wherever defined; not commutative when both counts are 0.
def merge(a, b):
    if a[1] == 0:
        return b
    if b[1] == 0:
        return a
    n = a[1] + b[1]
    return (a[0] * a[1] + b[0] * b[1]) / n, n


WITNESS = {
    "commutative": ((1, 0), (2, 0)),
    "identity": [((0, 0), (1, 0)), ((1, 1), (1, 1))],
    "idempotent": ((1, 1),),
}
