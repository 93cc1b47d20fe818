# expect: kind=binary associative=proved commutative=refuted identity=proved idempotent=proved
# Without the tie rule the result depends on the order of the operands.
def argmax(a, b):
    return b if b[0] > a[0] else a
