# helper
"""State for the w23_1 cases: a module global a helper writes, and closure cells
shared by two functions, one of which writes them (nonlocal)."""
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
