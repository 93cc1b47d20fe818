"""The Triton runner: laws whose sides reach @triton.jit code run by Triton's own
interpreter, on Triton's rules, and what it cannot run is undecided, never agreed."""
from __future__ import annotations

import triton
import triton.language as tl  # noqa: F401 (the interpreter patches the tl the jit code sees)
from triton.runtime.jit import JITFunction

from laws.core import Law, Property, Var
from verify.decide import pyrun, tritonrun


def _law(lhs, rhs, n=2, domain="real"):
    return Law(id="t.tritonrun", property=Property.ASSOCIATIVITY, statement="test",
               licenses="test", vars=tuple(Var(v, domain=domain) for v in "abc"[:n]),
               lhs=lhs, rhs=rhs)


@triton.jit
def _floor_div(a, b):
    return a // b, a % b


@triton.jit
def _float_mod(a, b):
    return a % b


@triton.jit
def _float_floor_div(a, b):
    return a // b


@triton.jit
def _assigned_constant(a):
    c = 0.1
    return a * c


@triton.jit
def _branch(a, b):
    if a > b:
        return a
    return b


def test_integer_division_truncates_as_on_the_device():
    law = _law(lambda a, b: _floor_div(a, b), lambda a, b: (a // b, a % b), domain="integer")
    got = tritonrun.run(law, [[-7, 2], [7, 2], [7, -2]])
    assert [g.lhs for g in got] == [[-3, -1], [3, 1], [-3, 1]]
    assert [g.rhs for g in got] == [[-4, 1], [3, 1], [-4, -1]]   # Python's floor, beside
    assert pyrun.confirms(law, [-7, 2])[0]          # the device and Python differ there
    assert not pyrun.confirms(law, [7, 2])[0]


def test_float_remainder_is_fmod_and_float_floor_division_is_not_run():
    law = _law(lambda a, b: _float_mod(a, b), lambda a, b: a - b * int(a / b))
    got = tritonrun.run(law, [[-5.5, 2.0], [5.5, 2.0]])
    assert [g.lhs for g in got] == [[-1.5], [1.5]]
    floor = _law(lambda a, b: _float_floor_div(a, b), lambda a, b: a // b)
    seen = pyrun.judge(floor, [7, 2])
    assert seen.status == "undecided" and "Triton's interpreter cannot run it" in seen.why
    ok, why = pyrun.confirms(floor, [7, 2])
    assert not ok and "Triton's interpreter" in why


def test_a_float_assigned_in_jit_code_is_a_float32_constant():
    law = _law(lambda a: _assigned_constant(a), lambda a: a * 0.1, n=1)
    got = tritonrun.run(law, [[1.0]])[0]
    assert got.lhs == [float(__import__("numpy").float32(0.1))] and got.rhs == [0.1]
    assert pyrun.judge(law, [1]).status == "gross"


def test_a_branch_on_lanes_runs_one_program_per_point():
    law = _law(lambda a, b: _branch(a, b), lambda a, b: max(a, b))
    points = [[1.0, 2.0], [3.0, -1.0], [-2.0, -5.0], [0.5, 0.25]]
    got = tritonrun.run(law, points)
    assert [g.lhs for g in got] == [[2.0], [3.0], [-2.0], [0.5]]
    assert all(pyrun.judge(law, p).status == "agree" for p in points)


def test_overflow_leaves_only_its_point_undecided():
    law = _law(lambda a, b: _float_mod(a * b, 3.0), lambda a, b: _float_mod(a * b, 3.0))
    points = [[1e300, 1e300]] + [[float(k), 2.0] for k in range(20)]
    got = tritonrun.run(law, points)
    assert got[0].overflow and not any(g.overflow for g in got[1:])
    pyrun.prefetch(law, points)
    assert pyrun.judge(law, points[0]).status == "undecided"
    assert pyrun.judge(law, points[3]).status == "agree"


def _h(x):
    return x * 2


def _g(x):
    return _H(x) + 1


_H = JITFunction(_h)     # what @triton.jit gives in a process without TRITON_INTERPRET=1
_G = JITFunction(_g)


def test_jit_functions_of_a_process_without_the_interpreter_run_too():
    law = _law(lambda a: _G(a), lambda a: 2 * a + 1, n=1)
    assert tritonrun.reaches_triton(law)
    assert [g.lhs for g in tritonrun.run(law, [[3.0], [-0.5]])] == [[7.0], [0.0]]
    assert JITFunction.__call__ is not None and _G.__class__ is JITFunction
    try:
        _G(1.0)
    except RuntimeError as exc:  # the launch put back JITFunction's own call
        assert "outside of the scope of a kernel" in str(exc)
    else:
        raise AssertionError("JITFunction is callable outside a kernel after a launch")


def test_plain_python_is_not_triton_code():
    law = _law(lambda a, b: a + b, lambda a, b: b + a)
    assert not tritonrun.reaches_triton(law)
    assert pyrun.judge(law, [1, 2]).sides.exact


def _plain_helper_with_tl(a):
    return tl.exp(a - a) + a        # tl.* in a plain function: Triton code all the same


def test_tl_outside_a_jit_function_is_run_inside_the_kernel():
    law = _law(lambda a, b: _plain_helper_with_tl(a) + b, lambda a, b: a + b + 1.0)
    assert tritonrun.reaches_triton(law)
    got = tritonrun.run(law, [[2.0, 3.0], [-1.5, 0.0]])
    assert [g.lhs for g in got] == [[6.0], [-0.5]] and [g.rhs for g in got] == [[6.0], [-0.5]]


def test_a_module_held_in_a_closure_cell_is_followed_to_its_triton_code():
    from laws.redundancy import prefix_cache as held   # a test's local import: a cell

    def lhs(a, b):
        return held.attention_state([(a, b)])[2]      # one key: o = e⁰·v = b

    law = _law(lhs, lambda a, b: b)
    assert tritonrun.reaches_triton(law)
    got = tritonrun.run(law, [[2.0, 3.0], [-1.5, 0.25]])
    assert [g.lhs for g in got] == [[3.0], [0.25]]
    assert not pyrun.confirms(law, [2.0, 3.0])[0]
