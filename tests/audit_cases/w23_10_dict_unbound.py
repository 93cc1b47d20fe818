# expect: kind=binary associative=unknown|refuted
# dict.__setitem__(_STATE, ...) through the unbound method. Fresh import at (2, 1, 3):
# lhs 9.0, rhs 8.0.
_STATE = {"n": 0}


def f(a, b):
    dict.__setitem__(_STATE, "n", _STATE["n"] + 1)
    return a * b + (_STATE["n"] % 2)
