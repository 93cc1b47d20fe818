# expect: kind=binary idempotent=unknown commutative=unknown identity=unknown
# math.erf has no reading: the searcher cannot evaluate a single case, so plain Python
# alone compares each property on the witness's points. erf(a) + erf(a) differs from a
# there, but through a library call whose rounding the float run does not bound, and no
# reading can confirm it (exp(40) + 1 − exp(40) is as gross and no counterexample): not
# refuted. A sample of plain runs proves nothing either: unknown, with the word named.
# (The case used math.fsum until fsum got its readings.)
import math


def f(a, b):
    return math.erf(a) + math.erf(b)
