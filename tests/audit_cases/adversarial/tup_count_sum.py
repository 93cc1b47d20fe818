# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=[0,0] idempotent=refuted|unknown
# state: 2
def merge(a, b):
    return a[0] + b[0], a[1] + b[1]


WITNESS = {
    "idempotent": ((1, 1),),
}
