# expect: kind=binary associative=unknown|refuted commutative=unknown|refuted additively_separable=unknown|refuted
# exec with the module's globals switches MODE at the first call: Python computes a + b
# once, then a − b. Fresh import: f(1, 1) = 2.0, then f(1, 1) = 0.0.
MODE = "add"


def f(a, b):
    r = a - b if MODE == "sub" else a + b
    exec("MODE = 'sub'", globals())  # noqa: S102 - the state written through text
    return r
