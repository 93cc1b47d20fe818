"""Type, identity and text tests no rebound copy follows (``verify.engine.faithful``),
under the names they hide behind, and the near misses that stay provable.

PYTEST_DONT_REWRITE: the cases' own ``assert`` must compile as Python compiles it."""
from __future__ import annotations

import builtins
import math
import operator
from operator import is_ as same


def _hasattr_argument(a, b):
    return a + b if hasattr(a, "hex") else a - b


def _getattr_default(a, b):
    return getattr(a, "denominator", 2) * b


def _hasattr_module_constant(a, b):
    return a + b if hasattr(math.pi, "hex") else a - b


def _fstring(a, b):
    return a + b if "." in f"{a}" else a - b


def _fstring_message(a, b):
    if a > 1e300:
        raise ValueError(f"too large: {a}")
    assert b < 1e300, f"too large: {b}"
    return a + b


def _operator_is(a, b):
    return a if operator.is_(a, b) else a + b


def _imported_is(a, b):
    return a if same(a, b) else a + b


def _builtins_type(a, b):
    return a + b if builtins.type(a) == float else a - b  # noqa: E721 - the case


def _builtins_id(a, b):
    return a + b + builtins.id(a) % 2


def _default_is_not(a, b, differ=operator.is_not):
    return a + b if differ(a, b) else a


def _class_attribute(a, b):
    return a + b if a.__class__ == float else a - b  # noqa: E721 - the case


def _feature_tests(a, b):
    if hasattr(math, "fsum") and getattr(math, "inf", 0.0) > 0 and hasattr(operator, "add"):
        return operator.add(a, b)
    return b + a


def test_each_type_identity_or_text_test_is_named():
    from verify.engine.faithful import refusal
    cases = {
        _hasattr_argument: "hasattr on a value", _getattr_default: "getattr on a value",
        _hasattr_module_constant: "hasattr on a value", _fstring: "an f-string",
        _operator_is: "operator.is_", _imported_is: "operator.is_",
        _builtins_type: "a type test (type)", _builtins_id: "the address of a value (id)",
        _default_is_not: "operator.is_not", _class_attribute: "__class__",
    }
    for fn, words in cases.items():
        why = refusal(fn)
        assert why is not None and words in why, (fn.__name__, why)


def test_feature_tests_on_modules_and_error_messages_are_no_refusal():
    from verify.engine.faithful import refusal
    assert refusal(_feature_tests) is None
    assert refusal(_fstring_message) is None
