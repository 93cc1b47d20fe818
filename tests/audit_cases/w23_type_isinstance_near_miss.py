# expect: kind=binary commutative=refuted identity=unknown
# The near miss: on floats the function subtracts, which plain Python refutes as
# commutative; "no identity" is still not concluded through a type test.
def f(a, b):
    if isinstance(a, float):
        return a - b
    return a + b
