# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=proved|tested|unknown idempotent=proved|tested|unknown
# state: 2
# (value, index): a tie keeps the left operand, whatever the indices (a tie-break error).
def argmax(a, b):
    if b[0] > a[0]:
        return b
    return a


WITNESS = {
    "commutative": ((1, 0), (1, 1)),
}
