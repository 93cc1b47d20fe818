# expect: kind=binary associative=unknown|refuted commutative=unknown|refuted additively_separable=unknown|refuted
# globals()["MODE"] switches the module global at the first call: Python computes a + b
# once, then a − b. Fresh import, commutativity at (1, 1): f(1, 1) = 2.0, then
# f(1, 1) = 0.0; additive separability at (1, 1, 1, 1): 2.0 + 0.0 against 0.0 + 0.0.
MODE = "add"


def f(a, b):
    if MODE == "sub":
        return a - b
    globals()["MODE"] = "sub"
    return a + b
