# expect: kind=binary associative=refuted commutative=proved identity=refuted idempotent=refuted additively_separable=proved
def f(a, b):
    return a * a + b * b
