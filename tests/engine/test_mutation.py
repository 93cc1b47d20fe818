"""In-place writes to state (``verify.engine.mutation``) and the fresh state each
plain-Python run starts from (``verify.engine.freshstate``)."""
from __future__ import annotations

import heapq
import itertools
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


def _unbound_append(a, b):
    list.append(_LIST, a)
    return a + b


def _unbound_setitem(a, b):
    dict.__setitem__(_DICT, "n", a)
    return a + b


_PHASES = (float(k % 2) for k in range(100))
_TICKS = itertools.count()


def _generator_next(a, b):
    return a + b + next(_PHASES)


def _count_loop(a, b):
    for t in _TICKS:
        return a + b + t % 2
    return a + b


def _default_iterator(a, b, scales=iter([1.0, 2.0])):  # noqa: B008 - the case is the default
    return (a + b) * next(scales)


_TUPLE = (1.0, 2.0)


def _local_iteration(a, b):
    parts: list = []
    list.append(parts, a)
    dict.get(_DICT, "n")
    total = 0.0
    for p in iter(parts):
        total += p
    return total + b * next(iter(_TUPLE)) + sum(x for x in _TUPLE)


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
        _unbound_append: "the list '_LIST' (a module global)",
        _unbound_setitem: "the dict '_DICT' (a module global)",
        _generator_next: "'_PHASES' (a module global)",
        _count_loop: "'_TICKS' (a module global)",
        _default_iterator: "'scales' (the default of parameter 'scales')",
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


def test_a_method_through_its_class_and_an_iterator_are_state_only_when_reached():
    assert "list.append()" in state_write(_unbound_append)
    assert "iterator advanced" in state_write(_generator_next)
    assert state_write(_local_iteration) is None and refusal(_local_iteration) is None


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
