# expect: kind=binary associative=unknown commutative=unknown
# An attribute on the function object counts calls; from the 201st call on Python
# computes a − b. Fresh import: f(1, 2) = 3.0 and f(2, 1) = 3.0 for the first calls,
# f(1, 2) = −1.0 after 200 calls. Every plain-Python point must start from the function
# as handed over (f.calls absent), or a run after 200 calls "refutes" commutativity.


def f(a, b):
    f.calls = getattr(f, "calls", 0) + 1
    if f.calls > 200:
        return a - b
    return a + b
