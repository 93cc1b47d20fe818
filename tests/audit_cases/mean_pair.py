# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=[0,0] idempotent=refuted
# (sum, count): the mean carried with its count.
def f(a, b):
    return a[0] + b[0], a[1] + b[1]
