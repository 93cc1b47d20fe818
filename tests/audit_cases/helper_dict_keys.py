# expect: kind=binary commutative=refuted associative=refuted|tested|unknown
# a + b·(number of distinct values among a, b): a dict keyed by values in a helper
# module. At a = b the count drops from 2 to 1.
import _helpers_stats as helpers


def weighted_by_distinct(a, b):
    return a + b * helpers.distinct_count([a, b])
