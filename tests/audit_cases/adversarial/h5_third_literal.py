# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# b where a equals T = 1 / 3 (a double, not 1/3), a + b elsewhere. It fails exactly there:
# f(T, 1) = 1 but f(1, T) = 1 + T; f(f(1, T), 1) = 2 + T but
# f(1, f(T, 1)) = 2; and 0 is no identity, f(T, 0) = 0. The switch point is
# whatever number the source means by T, read one way for literals, globals,
# closures and defaults alike; the failure is there under any reading.
# f(x, y) = g(x) + y with g(x) = x, 0 at the switch: additively separable.
T = 1 / 3


def f(a, b):
    return b if a == T else a + b


WITNESS = {
    "associative": (1, 1 / 3, 1),
    "commutative": (1 / 3, 1),
    "identity": [(0, 1 / 3), (1 / 3, 1), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
    "separable": (1 / 3, 1, 1, 2),
}
