# expect: kind=binary commutative=refuted associative=refuted|tested|unknown
# A nested function of the audited one builds a set: the scan covers nested code.
def weighted_by_distinct(a, b):
    def distinct(xs):
        return len(set(xs))
    return a + b * distinct([a, b])
