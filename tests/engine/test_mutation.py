"""In-place writes to state (``verify.engine.mutation``) and the fresh state each
plain-Python run starts from (``verify.engine.freshstate``)."""
from __future__ import annotations

import heapq
import random

import numpy as np

from verify.engine import freshstate
from verify.engine.faithful import refusal
from verify.engine.mutation import state_write

_LIST = [1.0]
_DICT = {"n": 0}
_HEAP: list = []


class _Box:
    def __init__(self):
        self.items = []


_BOX = _Box()


def _counter():
    state = {"n": 0}

    def combine(a, b):
        state["n"] += 1
        return a + b + state["n"]
    return combine


def _appends(a, b):
    _LIST.append(a)
    return a + b


def _deletes(a, b):
    del _DICT["n"]
    return a + b


def _pushes(a, b):
    heapq.heappush(_HEAP, a)
    return a + b


def _shuffles(a, b):
    random.shuffle(_LIST)
    return a + b


def _attribute_chain(a, b):
    _BOX.items.append(a)
    return a + b


def _loop_alias(a, b):
    for row in [_LIST]:
        row.sort()
    return a + b


def _out_argument(a, b):
    np.add(a, b, out=_ARRAY)
    return a + b


_ARRAY = np.zeros(1)


def _default(a, b, seen={}):  # noqa: B006 - the case is the mutable default
    seen.setdefault(a, b)
    return a + b


def _local_only(a, b):
    xs = [a]
    xs.append(b)
    xs.sort()
    d = {}
    d["k"] = a
    ys = list(_LIST)
    ys.append(b)
    return sorted(xs)[0] + d["k"] + np.sort(np.array(xs))[0]


def _reads_only(a, b):
    return a * _LIST[0] + b * _DICT.get("n", 0)


def test_each_write_is_named_with_its_object_and_line():
    cases = {
        _counter(): "the dict 'state' (a closure variable)",
        _appends: "the list '_LIST' (a module global)",
        _deletes: "the dict '_DICT' (a module global)",
        _pushes: "the list '_HEAP' (a module global)",
        _shuffles: "the list '_LIST' (a module global)",
        _attribute_chain: "the list '_BOX.items' (a module global)",
        _loop_alias: "the list '_LIST' (a module global)",
        _out_argument: "'_ARRAY' (a module global)",
        _default: "the dict 'seen' (the default of parameter 'seen')",
    }
    for fn, phrase in cases.items():
        why = state_write(fn)
        assert why is not None and phrase in why, (fn.__name__, why)
        line = int(why.split(" at line ")[1].split()[0])
        assert fn.__code__.co_firstlineno < line <= fn.__code__.co_firstlineno + 3, why
        assert refusal(fn) == why


def test_local_objects_and_reads_are_not_state():
    assert state_write(_local_only) is None
    assert state_write(_reads_only) is None
    assert refusal(_local_only) is None and refusal(_reads_only) is None


def test_reset_gives_each_run_the_state_handed_over():
    f = _counter()
    f(0, 0)                      # state["n"] is 1 when handed over
    with freshstate.kept([f]):
        assert freshstate.reset()
        assert f(0, 0) == 2
        assert f(0, 0) == 3
        assert freshstate.reset()
        assert f(0, 0) == 2
    assert f(0, 0) == 2          # put back on leaving too


def test_reset_without_a_snapshot_says_so():
    assert freshstate.reset() is False
