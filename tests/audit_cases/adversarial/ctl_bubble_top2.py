# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# Top-2 of the four values by bubble sort: the top two of the union, so associative
# on any real pairs, but an unsorted pair (1, 2) comes back as (2, 1), even from the
# would-be identity (−∞, −∞).
def merge(a, b):
    xs = [a[0], a[1], b[0], b[1]]
    for i in range(len(xs)):
        for j in range(len(xs) - 1 - i):
            if xs[j] < xs[j + 1]:
                xs[j], xs[j + 1] = xs[j + 1], xs[j]
    return xs[0], xs[1]


WITNESS = {
    "identity": [(("-inf", "-inf"), (1, 2))],
    "idempotent": ((2, 1),),
}
