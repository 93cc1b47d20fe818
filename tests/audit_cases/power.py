# expect: kind=binary associative=refuted commutative=refuted identity=unknown|refuted idempotent=refuted
def f(a, b):
    return a ** b
