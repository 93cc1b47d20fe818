# expect: kind=binary associative=refuted commutative=proved identity=refuted idempotent=refuted
def f(a, b):
    return max(a, b) - min(a, b)
