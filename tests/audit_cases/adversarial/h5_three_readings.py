# expect: kind=binary associative=proved|tested|unknown commutative=proved|tested|unknown identity=proved|tested|unknown identity.element=0 idempotent=refuted|unknown
# target: f
# Python reads a module constant, a closure value, a default and a literal 0.1 as the same double, so the test is true and f = a + b.
# tanh(0) = 0 is there for its effect on the auditor: the prover has no encoding for
# tanh, so the searcher decides, and it must read the numbers the same way too.
import math

C = 0.1


def make(k):
    def f(a, b, d=0.1):
        if C == 0.1 and k == C and d == k:
            return a + b + math.tanh(0.0)
        return a - b
    return f


f = make(0.1)

WITNESS = {
    "idempotent": (1,),
}
