# expect: kind=binary associative=refuted commutative=refuted identity=refuted idempotent=refuted additively_separable=proved
def f(a, b):
    return 2 * a + b
