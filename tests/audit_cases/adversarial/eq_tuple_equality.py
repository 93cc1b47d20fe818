# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=[0,0] idempotent=proved|tested|unknown
# state: 2
# Equal states (tuple ==, elementwise) merge to one copy, others add up.
def f(a, b):
    if a == b:
        return a
    return a[0] + b[0], a[1] + b[1]


WITNESS = {
    "associative": ((1, 1), (1, 1), (2, 2)),
}
