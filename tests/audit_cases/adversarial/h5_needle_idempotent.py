# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element="-inf" idempotent=refuted|unknown
# max(a, b) except at a = b = 0.1, where it is 0: f(0.1, 0.1) = 0. Then
# f(f(0.1, 0.1), 0.05) = 0.05 but f(0.1, f(0.1, 0.05)) = 0.
def f(a, b):
    if a == b == 0.1:
        return 0.0
    return max(a, b)


WITNESS = {
    "associative": (0.1, 0.1, 0.05),
    "idempotent": (0.1,),
}
