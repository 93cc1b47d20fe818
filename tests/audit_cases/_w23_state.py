# helper
"""State for the w23_1 cases: a module global a helper writes, closure cells shared by
two functions, one of which writes them (nonlocal), a closure dict changed in place,
and a list a helper appends to through its parameter."""
MODE = "add"


def configure():
    global MODE
    MODE = "sub"


def _make():
    scale = 1

    def setup():
        nonlocal scale
        scale = -1

    def scaled(x):
        return scale * x

    return setup, scaled


setup, scaled = _make()


def make_counter():
    """A combine that counts its calls in a closure dict (no nonlocal): from the 50th
    call on its result gains 1."""
    state = {"n": 0}

    def combine(a, b):
        state["n"] += 1
        return max(a, b) + (0.0 if state["n"] < 50 else 1.0)
    return combine


LOG = []


def record(items, x):
    items.append(x)


# w23_12: a list a functools.partial binds to record's parameter
PARTIAL_LOG = []
