# expect: kind=binary commutative=refuted idempotent=proved|tested
# A counter loop on floats: at a = 10²⁰, x − 1.0 is x in doubles and the loop never ends
# (in mpmath it takes 10²⁰ steps). One evaluation is cut after a few seconds and decides
# nothing; the audit ends with verdicts instead of running to its time limit.


def f(a, b):
    x = a
    while x > b:
        x = x - 1.0
    return x
