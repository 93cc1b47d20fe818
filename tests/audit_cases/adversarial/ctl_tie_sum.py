# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# The larger operand, or their sum on a tie.
def f(a, b):
    if a > b:
        return a
    if b > a:
        return b
    return a + b


WITNESS = {
    "associative": (1, 1, 2),
    "idempotent": (1,),
}
