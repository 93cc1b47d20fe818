# expect: kind=binary associative=unknown commutative=unknown
# target: step_ab
# The audited target is a functools.partial that binds a module list to a parameter
# the function appends to: from the 3001st call on Python computes a − b
# (step_ab(1, 2): 3.0, then −1.0).
import functools

_LOG = []


def _step(log, a, b):
    log.append(1)
    if len(log) > 3000:
        return a - b
    return a + b


step_ab = functools.partial(_step, _LOG)
