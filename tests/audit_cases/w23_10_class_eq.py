# expect: kind=binary commutative=unknown|refuted additively_separable=unknown
# a.__class__ is a type test: Python floats add (commutative), every other reading
# subtracts. A proof about the copies says nothing about Python floats.
def f(a, b):
    if a.__class__ == float:  # noqa: E721 - the case is this test
        return a + b
    return a - b
