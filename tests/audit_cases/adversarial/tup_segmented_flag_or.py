# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# Segmented sum with a real OR of the flags: associative (a set flag in the middle
# or right operand restarts the sum either way). The flag it returns is 0 or 1, so a
# state with flag 2 is never returned unchanged: no identity.
def combine(a, b):
    flag = 1 if (a[0] != 0 or b[0] != 0) else 0
    return flag, (b[1] if b[0] != 0 else a[1] + b[1])


WITNESS = {
    "commutative": ((1, 1), (0, 1)),
    "identity": [((0, 0), (2, 1)), ((1, 0), (2, 1))],
    "idempotent": ((0, 1),),
}
