# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=proved|tested|unknown separable=refuted|unknown additively_separable=refuted|unknown
# a for a ≥ b (through √(a − b)² + b), 2b − a otherwise. Commutativity calls f(a, b)
# and f(b, a): assuming both sqrt arguments nonnegative leaves only a = b, where it
# holds. Really f(1, 2) = 3 and f(2, 1) = 2. f(a, a) = a does hold.
import math


def f(a, b):
    if a >= b:
        return math.sqrt(a - b) ** 2 + b
    return 2 * b - a


WITNESS = {
    "associative": (0, 0, 1),
    "commutative": (1, 2),
    "identity": [(0, 1), (1, 0), ("-inf", 1), ("inf", 1)],
    "separable": (0, 1, 0, 1),
    "additively_separable": (0, 1, 0, 1),
}
