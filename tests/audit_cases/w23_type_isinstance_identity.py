# expect: kind=binary identity=unknown
# e = 0.0 is an identity for float or int inputs (isinstance(0.0, float) selects
# a + b). No reading follows a type test, so none may conclude "no identity" (one once
# did, from the int candidate 0 and a z3 reading of isinstance).
def f(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a + b
    return a - b
