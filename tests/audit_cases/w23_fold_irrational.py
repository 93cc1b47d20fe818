# expect: kind=binary commutative=tested|unknown identity=unknown|refuted
# 2 ** 0.5 folds to a double whose exact value (√2) no reading holds: the prover
# refuses the constant rather than prove (a + b)·√2·√2 / 2 = a + b about a double.
def f(a, b):
    return (a + b) * 2 ** 0.5 * 2 ** 0.5 / 2
