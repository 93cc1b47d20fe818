# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=["-inf",0] idempotent=proved
# (value, index): the larger value wins, ties go to the lower index.
def argmax(a, b):
    if b[0] > a[0] or (b[0] == a[0] and b[1] < a[1]):
        return b
    return a
