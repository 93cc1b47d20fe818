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


def test_a_limit_expiring_inside_a_gc_callback_still_holds():
    # hypothesis times every collection with a gc callback: a limit raised there would be
    # printed as unraisable and lost, and the stage would run on past it
    import gc

    def slow_callback(phase, info):
        if phase == "start":
            end = time.monotonic() + 0.3
            while time.monotonic() < end:
                pass
    unraisable = []
    hook, sys.unraisablehook = sys.unraisablehook, unraisable.append
    gc.callbacks.append(slow_callback)
    try:
        t0 = time.monotonic()
        with pytest.raises(TimeLimit):
            with time_limit(0.05):
                gc.collect()  # the limit expires inside the callback
                while time.monotonic() - t0 < 3:
                    pass
        assert time.monotonic() - t0 < 1.5
    finally:
        gc.callbacks.remove(slow_callback)
        sys.unraisablehook = hook
    assert unraisable == []


def test_a_point_limit_says_what_it_was_given():
    from verify.decide.limits import PointTimeLimit
    with pytest.raises(PointTimeLimit, match="at 3"):
        with time_limit(0.05, lambda: "did not finish at 3", PointTimeLimit):
            while True:
                pass


def test_z3s_parser_error_is_named_for_what_it_means():
    import z3

    from verify.decide.limits import one_line
    try:
        z3.Real("x") + float("inf")  # outside a symbolic evaluation: no ∞ is modelled
    except z3.Z3Exception as exc:
        assert one_line(exc) == ("z3 could not read a number: a ±∞ or NaN computed at run "
                                 "time met a z3 term")
    else:
        raise AssertionError("z3 read a Python infinity")
