# expect: kind=binary associative=proved commutative=proved identity=proved identity.element=0 idempotent=refuted|unknown
# A set as a class attribute elsewhere in the module. f = (a + 1)(b + 1) − 1, a
# conjugate of multiplication: associative, identity 0.
class Palette:
    names = {"red", "green"}


def f(a, b):
    return a * b + a + b


WITNESS = {
    "idempotent": (1,),
}
