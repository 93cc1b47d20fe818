# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# (mean, weight) merged by weight, and (0, 0) when the weights cancel. The guard
# forgets the sum m·w: (1, 1)·(5, −1)·(3, 2) is (3, 2) grouped left, (1, 2) grouped
# right. Assuming w + w′ ≠ 0 everywhere would hide it.
def merge(a, b):
    w = a[1] + b[1]
    if w != 0:
        return (a[0] * a[1] + b[0] * b[1]) / w, w
    return 0.0, 0


WITNESS = {
    "associative": ((1, 1), (5, -1), (3, 2)),
    "identity": [((0, 0), (1, 0)), ((1, 0), (1, 0))],
    "idempotent": ((1, 1),),
}
