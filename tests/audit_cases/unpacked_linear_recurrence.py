# expect: kind=binary associative=proved commutative=refuted identity=proved identity.element=[1,0]
# The tl.reduce / tl.associative_scan calling convention: tuple states passed unpacked.
def combine(a_a, a_b, b_a, b_b):
    return a_a * b_a, b_a * a_b + b_b
