# expect: kind=binary associative=proved commutative=proved
# Near miss: bound methods stored at module level that only read (_get = _TABLE.get,
# _count = _ITEMS.count) and a local alias of one: nothing outside the call changes,
# f is a + b, so the laws are proved.
_TABLE = {"scale": 1.0}
_ITEMS = [1.0, 2.0]
_get = _TABLE.get
_count = _ITEMS.count


def f(a, b):
    look = _TABLE.get
    return (a + b) * _get("scale", 1.0) * look("scale", 1.0) * _count(2.0)
