# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=[0,0] idempotent=refuted
# (mean, count), merged by weighting each mean with its count.
def merge(a, b):
    n = a[1] + b[1]
    return (a[0] * a[1] + b[0] * b[1]) / n, n
