# expect: kind=binary associative=tested commutative=tested identity=tested identity.element=0 idempotent=refuted additively_separable=refuted
# Bitwise exclusive or is defined on ints only: Python raises TypeError on floats. Before,
# the probe call on mpmath values ended the audit (exit 2); now the parameters are taken
# as integers and every reading runs Python's own ints.


def f(a, b):
    return a ^ b
