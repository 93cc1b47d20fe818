# expect: kind=binary commutative=refuted|unknown
# repr of a Python float: "1.0" is short, a symbolic term's text is not.
def f(a, b):
    return a - b if len(repr(a)) < 40 else a + b
