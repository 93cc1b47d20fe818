# expect: kind=binary associative=tested commutative=tested idempotent=tested separable=refuted
# Bitwise and on int-annotated parameters (the annotation states the domain ℤ). Its
# identity is −1 (all ones), which no candidate names: identity is not claimed.


def f(a: int, b: int):
    return a & b
