# expect: kind=binary associative=proved commutative=proved
# Near miss: a dict of operations that only compute (operator.add and a partial of
# operator.mul with 1.0): f is a + b at every call (f(1, 2) = 3.0), so the laws are proved.
import functools
import operator

_OPS = {"join": operator.add, "unit": functools.partial(operator.mul, 1.0)}


def f(a, b):
    return _OPS["unit"](_OPS["join"](a, b))
