# expect: kind=binary associative=unknown commutative=unknown
# vars(f) is the function's attribute dict, written through an item: from the 3001st
# call on Python computes a − b (f(1, 2): 3.0, then −1.0); a copy of f never sees it.


def f(a, b):
    vars(f)["calls"] = vars(f).get("calls", 0) + 1
    if vars(f)["calls"] > 3000:
        return a - b
    return a + b
