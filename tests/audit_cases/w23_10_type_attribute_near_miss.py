# expect: kind=binary associative=proved commutative=proved
# Near miss: hasattr and getattr on a module (a feature test), operator.add: the same for
# every value of a and b, so the laws are proved.
import math
import operator


def f(a, b):
    if hasattr(math, "pi") and getattr(math, "inf", 0.0) > 0:
        return operator.add(a, b)
    return b + a
