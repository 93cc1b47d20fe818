# expect: kind=binary commutative=refuted|unknown associative=refuted|unknown
# Called with Python floats the function subtracts; with anything else it adds.
def f(a, b):
    if isinstance(a, float):
        return a - b
    return a + b
