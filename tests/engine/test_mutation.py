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


# ------------------------------------------------- state reached through callables
_PUSH = _LIST.append
_RECORD_LIST: list = []


def _record(items, x):
    items.append(x)


_RECORD = __import__("functools").partial(_record, _RECORD_LIST)
_APPEND = __import__("functools").partial(list.append, _RECORD_LIST)
_AT = np.add.at


class _Tick:
    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return self.n


class _Scale:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return self.k * x


_TICK = _Tick()
_SCALE = _Scale(1.0)
_GET = _DICT.get


def _bound_push(a, b):
    _PUSH(a)
    return a + b


def _local_alias(a, b):
    push = _LIST.append
    push(a)
    return a + b


def _partial_record(a, b):
    _RECORD(a)
    return a + b


def _partial_append(a, b):
    _APPEND(a)
    return a + b


def _ufunc_at(a, b):
    np.add.at(_ARRAY, 0, a)
    return a + b


def _ufunc_at_alias(a, b):
    _AT(_ARRAY, 0, a)
    return a + b


def _ufunc_positional_out(a, b):
    np.add(_ARRAY, a, _ARRAY)
    return a + b


def _globals_item(a, b):
    globals()["_MODE"] = "sub"
    return a + b


def _vars_item(a, b):
    vars(_vars_item)["calls"] = 1
    return a + b


def _dict_attribute(a, b):
    _vars_item.__dict__["calls"] = 1
    return a + b


def _callable_object(a, b):
    return a + b + 0 * _TICK()


def _handed_on(a, b):
    list(map(_LIST.append, [a]))
    return a + b


def _setattr_function(a, b):
    setattr(_setattr_function, "calls", 1)  # noqa: B010 - setattr is the case
    return a + b


def _reads_through_callables(a, b):
    get = _DICT.get
    return (a + b) * _SCALE(1.0) + 0 * get("n", 0) * _GET("n", 0) + 0 * _LIST.count(1.0) \
        + 0 * globals().get("_MODE", 0) + 0 * len(vars(_reads_through_callables))


def test_state_reached_through_callables_and_namespaces_is_named():
    cases = {
        _bound_push: "the bound method list.append changes its list",
        _local_alias: "the list '_LIST' (a module global)",
        _partial_record: "binds a list to parameter 'items' of _record",
        _partial_append: "binds a list to append()",
        _ufunc_at: "the object '_ARRAY' (a module global)",
        _ufunc_at_alias: "at() under the name '_AT'",
        _ufunc_positional_out: "add(…, out)",
        _globals_item: "the module's globals (globals())",
        _vars_item: "the namespace 'vars(_vars_item)'",
        _dict_attribute: "the namespace '_vars_item.__dict__'",
        _callable_object: "_Tick.__call__ changes the object",
        _handed_on: ".append (the method itself)",
    }
    for fn, phrase in cases.items():
        why = refusal(fn)
        assert why is not None and phrase in why, (fn.__name__, why)
    assert "setattr" in refusal(_setattr_function)


def test_reading_through_callables_and_namespaces_is_not_state():
    assert refusal(_reads_through_callables) is None


def test_reset_puts_back_function_attributes_held_objects_and_new_globals():
    def counted(a):
        counted.calls = getattr(counted, "calls", 0) + 1
        _TICK()
        _RECORD(a)
        globals()["_ADDED_LATER"] = 1
        return counted.calls
    counted.calls = 5
    n, held = _TICK.n, len(_RECORD_LIST)
    with freshstate.kept([counted]):
        assert counted(0) == 6 and _TICK.n == n + 1
        assert freshstate.reset()
        assert counted.calls == 5 and _TICK.n == n and len(_RECORD_LIST) == held
        assert "_ADDED_LATER" not in globals()
