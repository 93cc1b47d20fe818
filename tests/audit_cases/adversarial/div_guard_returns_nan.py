# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown separable=proved|tested|unknown additively_separable=refuted|unknown
# a/b, NaN where b = 0 (undefined, said explicitly). Separable where defined; at b = 0
# both sides of the separability equation are NaN.
import math


def f(a, b):
    return a / b if b != 0 else math.nan


WITNESS = {
    "associative": (1, 2, 4),
    "commutative": (1, 2),
    "identity": [(1, 2), (0, 1)],
    "idempotent": (2,),
    "additively_separable": (1, 2, 1, 2),
}
