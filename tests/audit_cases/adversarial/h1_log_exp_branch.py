# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# exp(log(s)) = s only where s > 0; the other branch is a − b. A log side condition
# asserted on every path hides that branch: f(−1, −2) = 1 but f(−2, −1) = −1.
# No identity: f(e, a) = a for every a > −e forces e = 0, and f(0, −1) = 1.
import math


def f(a, b):
    s = a + b
    return math.exp(math.log(s)) if s > 0 else a - b


WITNESS = {
    "associative": (-1, -1, 3),
    "commutative": (-1, -2),
    "identity": [(0, -1), (1, 0), ("-inf", 0), ("inf", 0)],
    "idempotent": (1,),
    "separable": (1, -1, 1, -2),
    "additively_separable": (1, -1, 1, -2),
}
