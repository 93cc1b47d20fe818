# expect: kind=binary commutative=refuted|unknown
def f(a, b):
    return a - b if type(b) is float else a + b
