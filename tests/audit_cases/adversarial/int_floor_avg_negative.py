# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown
# Floor division by a negative divisor rounds toward −∞ too: (a + b) // −2 is
# −⌈(a + b)/2⌉. Commutative; not associative: f(f(0, 0), 1) = f(0, 1) = −1 but
# f(0, f(0, 1)) = f(0, −1) = 0; f(1, 1) = −1, so not idempotent.
def f(a, b):
    return (a + b) // -2


WITNESS = {
    "associative": (0, 0, 1),
    "identity": [(0, 1), (1, 1)],
    "idempotent": (1,),
}
