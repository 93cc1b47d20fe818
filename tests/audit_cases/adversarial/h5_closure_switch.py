# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=proved|tested|unknown
# target: f
# b where a equals the closure's c = 0.1, a + b elsewhere. It fails exactly there:
# f(0.1, 1) = 1 but f(1, 0.1) = 1 + 0.1; f(f(1, 0.1), 1) = 2 + 0.1 but
# f(1, f(0.1, 1)) = 2; and 0 is no identity, f(0.1, 0) = 0. The switch point is
# whatever number the source means by 0.1, read one way for literals, globals,
# closures and defaults alike; the failure is there under any reading.
# f(x, y) = g(x) + y with g(x) = x, 0 at the switch: additively separable.
def make(c):
    def f(a, b):
        return b if a == c else a + b
    return f


f = make(0.1)

WITNESS = {
    "associative": (1, 0.1, 1),
    "commutative": (0.1, 1),
    "identity": [(0, 0.1), (0.1, 1), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
    "separable": (0.1, 1, 1, 2),
}
