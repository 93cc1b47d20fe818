# expect: kind=binary associative=unknown|refuted additively_separable=unknown|refuted
# operator.is_not under another name, as w23_10_operator_is.py: (1.0, the same 1.0, 2.0)
# gives 3.0 against 4.0.
from operator import is_not as differ


def f(a, b):
    return a + b if differ(a, b) else a
