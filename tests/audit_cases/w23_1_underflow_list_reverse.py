# expect: kind=binary associative=unknown separable=unknown commutative=refuted
# Both sides of associativity and separability use the weights 2 and 1 once each in every
# state, so both hold in exact arithmetic; their float sides differ only by subnormal
# rounding, which the running bound covers. Near miss: f(a, b) and f(b, a) weigh by 2 and
# then 1, a real difference.
_W = [1.0, 2.0]


def f(a, b):
    _W.reverse()
    return a * b * _W[0]
