# expect: fail associative
# B′ + A′·B written as A′·(B + B′/A′), guarded for A′ = 0; that branch keeps B as well,
# though a zero coefficient forgets everything before it.
def compose(first, then):
    a, b = first
    a2, b2 = then
    if a2 != 0:
        return a * a2, a2 * (b + b2 / a2)
    return 0, b + b2
