# expect: kind=binary associative=unknown|refuted additively_separable=unknown|refuted
# operator.is_ is an identity test without the `is` keyword. With a and b one object
# (a = 1.0; b = a): f(f(a, b), 2.0) = 3.0 but f(a, f(b, 2.0)) = 4.0.
import operator


def f(a, b):
    if operator.is_(a, b):
        return a
    return a + b
