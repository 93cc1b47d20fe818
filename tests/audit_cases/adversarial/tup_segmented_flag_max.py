# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 2
# Segmented sum (flag, value) with the flags OR-ed by max: right for 0/1 flags only.
# With a flag −1 (any real is a state): (0, 1)·(0, 1)·(−1, 1) is (0, 1) grouped left,
# (0, 2) grouped right.
def combine(a, b):
    return max(a[0], b[0]), (b[1] if b[0] != 0 else a[1] + b[1])


WITNESS = {
    "associative": ((0, 1), (0, 1), (-1, 1)),
    "commutative": ((1, 1), (0, 1)),
    "identity": [((0, 0), (-1, 1)), (("-inf", 0), (1, 1))],
    "idempotent": ((0, 1),),
}
