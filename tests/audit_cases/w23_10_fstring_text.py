# expect: kind=binary commutative=unknown|refuted associative=unknown|refuted
# An f-string reads the value's text: 2.0 prints with a decimal point, 1e+16 and exact
# rationals do not. On Python floats f(1e16, 1.0) = 0.0 but f(1.0, 1e16) = 1.0; every
# exact reading gives 0.
def f(a, b):
    if "." in f"{a}":
        return 1.0
    return 0.0 * b
