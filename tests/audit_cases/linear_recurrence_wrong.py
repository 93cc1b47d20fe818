# expect: kind=binary associative=refuted commutative=refuted
# The composition with the scale applied to the wrong offset.
def compose(first, then):
    a1, b1 = first
    a2, b2 = then
    return a1 * a2, a1 * b1 + b2
