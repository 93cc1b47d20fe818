"""The wall-clock limit of a stage holds even when it expires inside a destructor (z3's
objects free themselves in ``__del__``): it is raised once the destructor returns, not
swallowed as an unraisable exception."""
import sys
import time

import pytest

from verify.decide.limits import TimeLimit, time_limit


class SlowToFree:
    def __del__(self):
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            pass


def test_a_limit_expiring_inside_a_destructor_still_holds():
    unraisable = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        t0 = time.monotonic()
        with pytest.raises(TimeLimit):
            with time_limit(0.05):
                SlowToFree()  # freed at once: the limit expires inside __del__
                while time.monotonic() - t0 < 3:
                    pass
        assert time.monotonic() - t0 < 1.5
    finally:
        sys.unraisablehook = hook
    assert unraisable == []


def test_an_ordinary_limit_still_fires():
    with pytest.raises(TimeLimit):
        with time_limit(0.05):
            while True:
                pass
