# expect: kind=binary commutative=refuted idempotent=proved separable=refuted additively_separable=refuted
# A floor division in a branch: Python's 1 // 1.0 is exactly 1, so the test 1 // 1.0 < 1
# is decided (false), not a branch "within rounding". Before, the plain replay gave the
# floor a rounding error of one unit and discarded the exact separable counterexample
# at (0, 1, 0, 1) as undecided.


def f(lo, hi):
    return hi if lo // 1.0 < hi or lo == hi else lo
