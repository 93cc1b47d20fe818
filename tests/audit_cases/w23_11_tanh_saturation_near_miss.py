# expect: kind=binary commutative=refuted associative=refuted
# tanh(a) > −0.5 fails for a ≤ −0.55 by a margin no rounding makes: f(−1, 0) = −1 against
# f(0, −1) = 0, and f(f(0, −1), 1) = 1 against f(0, f(−1, 1)) = 0.
import math


def f(a, b):
    return max(a, b) if math.tanh(a) > -0.5 else a
