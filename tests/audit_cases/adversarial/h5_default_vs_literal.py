# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown
# Python reads the default c = 0.1 and the literal 0.1 as the same double, so the test is true and f = a + b.
# tanh(0) = 0 is there for its effect on the auditor: the prover has no encoding for
# tanh, so the searcher decides, and it must read the numbers the same way too.
import math


def f(a, b, c=0.1):
    return (a + b if c == 0.1 else a - b) + math.tanh(0.0)


WITNESS = {
    "idempotent": (1,),
}
