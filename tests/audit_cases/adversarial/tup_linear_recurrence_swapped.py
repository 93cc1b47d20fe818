# expect: kind=binary associative=proved|tested|unknown commutative=refuted|unknown identity=proved|tested|unknown identity.element=[1,0] idempotent=refuted|unknown
# state: 2
# (A·A′, A·B′ + B): composition of affine maps in the other order, still associative.
def compose(x, y):
    return x[0] * y[0], x[0] * y[1] + x[1]


WITNESS = {
    "commutative": ((1, 1), (2, 0)),
    "idempotent": ((2, 1),),
}
