# expect: kind=binary associative=proved commutative=refuted identity=proved identity.element=[1,0] idempotent=refuted
# h ↦ a·h + b, composed: first (a1, b1), then (a2, b2).
def compose(first, then):
    a1, b1 = first
    a2, b2 = then
    return a1 * a2, a2 * b1 + b2
