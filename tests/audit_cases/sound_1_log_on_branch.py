# expect: kind=binary commutative=refuted
# exp(log(s)) on the branch s > 0 only: log's side condition belongs to that branch and
# must not remove the other one from the domain. f(−1, −2) = 1 but f(−2, −1) = −1.
import math


def f(a, b):
    s = a + b
    return math.exp(math.log(s)) if s > 0 else a - b
