# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# a·b through logs where both are positive, a − b elsewhere. Assuming a > 0 and b > 0
# on every path leaves only the product. f(−1, 2) = −3, f(2, −1) = 3.
# No identity: on a ≤ 0, f(e, a) = a means e − a = a.
import math


def f(a, b):
    if a > 0 and b > 0:
        return math.exp(math.log(a) + math.log(b))
    return a - b


WITNESS = {
    "associative": (2, 2, -1),
    "commutative": (-1, 2),
    "identity": [(1, -1), (0, 1), ("-inf", 1), ("inf", 1)],
    "idempotent": (2,),
    "separable": (1, -1, 1, 2),
    "additively_separable": (2, -1, 2, 1),
}
