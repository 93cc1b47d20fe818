# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown idempotent=proved|tested|unknown
# state: 2
# (value, index): the larger value wins; on a tie the smaller index.
def argmax(a, b):
    if a[0] > b[0]:
        return a
    if b[0] > a[0]:
        return b
    return a[0], min(a[1], b[1])
