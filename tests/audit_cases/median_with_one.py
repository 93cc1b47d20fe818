# expect: kind=binary associative=proved commutative=proved identity=refuted idempotent=proved
# median(a, b, 1) by sorting: the z3 interpretation forks on every comparison sorted makes.
def f(a, b):
    return sorted([a, b, 1])[1]
