# expect: kind=binary associative=refuted commutative=proved identity=refuted idempotent=proved
# The mean without its count: chunk means cannot be averaged.
def f(a, b):
    return (a + b) / 2
