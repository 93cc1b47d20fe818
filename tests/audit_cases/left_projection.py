# expect: kind=binary associative=proved commutative=refuted identity=refuted idempotent=proved separable=proved additively_separable=proved
def first(a, b):
    return a
