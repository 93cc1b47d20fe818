# expect: kind=binary associative=refuted commutative=refuted identity=refuted idempotent=refuted separable=refuted additively_separable=proved
def f(a, b):
    return a - b
