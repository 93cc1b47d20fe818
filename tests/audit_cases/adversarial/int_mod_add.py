# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown additively_separable=refuted|unknown
# (a + b) mod 5 for real a, b: associative (x mod 5 + y ≡ x + y). Its values lie in
# [0, 5), so no element gives back a = 7.
def f(a, b):
    return (a + b) % 5


WITNESS = {
    "identity": [(0, 7), (5, 7), (1, 0)],
    "idempotent": (1,),
    "additively_separable": (0, 1, 0, 4),
}
