"""Constants the compiler folded, read back from the source.

Python folds a constant expression when it compiles: ``0.1 * 3`` in a function's source
is the double 0.30000000000000004 in its code object, while ``C * 3`` with a global
``C = 0.1`` is computed by each reading, exactly over ℝ (3 · 0.1000000000000000055…).
The real-valued readings follow one rule for numbers: every float written in the code
is the exact double it denotes and arithmetic on it is the reading's arithmetic, so a
folded expression must mean what its source says, not the double the compiler made of
it. ``folded_constants`` parses the function's source and maps each folded double back
to the exact value of its expression (literals as their doubles). Where a double is
ambiguous (written as a literal too, or the fold of two expressions with different
exact values: one constant slot holds them all) it maps to None and the reading refuses
the function; without source (``exec``'d code) nothing is mapped.
Code computed at module level (``C = 0.1 * 3``) is a global that holds a double.
"""
from __future__ import annotations

import ast
import inspect
import math
import operator
import textwrap
import types
from fractions import Fraction
from typing import Any

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_CACHE: dict[types.CodeType, dict[float, Fraction | None]] = {}


def _values(node: ast.AST) -> tuple[Any, Fraction] | None:
    """(what Python folds ``node`` to, its exact value), or None where ``node`` is not
    a constant arithmetic expression this module reads."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        if type(node.value) is float and not math.isfinite(node.value):
            return None
        return node.value, Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        inner = _values(node.operand)
        if inner is None:
            return None
        op = _UNARY[type(node.op)]
        return op(inner[0]), op(inner[1])
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _values(node.left), _values(node.right)
        if left is None or right is None:
            return None
        op = _BINARY[type(node.op)]
        try:
            return op(left[0], right[0]), op(left[1], right[1])
        except (ZeroDivisionError, OverflowError):
            return None
    return None


def folded_constants(code: types.CodeType) -> dict[float, Fraction | None]:
    """Each double the compiler folded in ``code``'s source (nested functions and
    comprehensions included) mapped to the exact value of the expression it came from,
    where the two differ; to None where the double is ambiguous."""
    known = _CACHE.get(code)
    if known is not None:
        return known
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(code)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        _CACHE[code] = {}
        return {}
    folded: dict[float, set[Fraction]] = {}
    literals: set[float] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is float:
            literals.add(node.value)
        if not isinstance(node, (ast.BinOp, ast.UnaryOp)):
            continue
        values = _values(node)
        if values is None or type(values[0]) is not float or not math.isfinite(values[0]):
            continue
        python, exact = values
        if Fraction(python) != exact:
            folded.setdefault(python, set()).add(exact)
    out: dict[float, Fraction | None] = {
        d: next(iter(ex)) if len(ex) == 1 and d not in literals else None
        for d, ex in folded.items()}
    _CACHE[code] = out
    return out
