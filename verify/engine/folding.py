"""Constants the compiler folded, read back from the source.

Python folds a constant expression when it compiles: ``0.1 * 3`` in a function's source
is the double 0.30000000000000004 in its code object, while ``C * 3`` with a global
``C = 0.1`` is computed by each reading, exactly over ℝ (3 · 0.1000000000000000055…).
The real-valued readings follow one rule for numbers: every float written in the code
is the exact double it denotes and arithmetic on it is the reading's arithmetic, so a
folded expression must mean what its source says, not the double the compiler made of
it. ``folded_constants`` parses the function's source and maps each folded double back
to the exact value of its expression (literals as their doubles), for every operator
CPython folds: ``+ − * / // % **``, shifts, ``& | ^``, unary ``− + ~``, inside tuples
and sets of constants too (``1 + 2 ** -60`` is 1 + 2⁻⁶⁰, not the double 1.0). Where a
double is ambiguous (written as a literal too, or the fold of two expressions with
different exact values: one constant slot holds them all) it maps to None, and where
its exact value is irrational (``2 ** 0.5``) to ``Unreadable``: the prover refuses the
function either way; without source (``exec``'d code) nothing is mapped.
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
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
           ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
           ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
_MAX_BITS = 4096  # beyond this CPython does not fold (its limit is far lower) nor do we


class Unreadable:
    """A fold whose exact value no reading holds: an irrational power (``2 ** 0.5``)."""

    def __init__(self, source: str) -> None:
        self.source = source


_CACHE: dict[types.CodeType, dict[float, Fraction | Unreadable | None]] = {}


def _too_big(op: Any, a: Any, b: Any) -> bool:
    """Operands CPython would not fold (or folding would take too long here)."""
    if op in (operator.lshift, operator.rshift):
        return not isinstance(b, int) or abs(b) > _MAX_BITS
    if op is operator.pow:
        try:
            return abs(b) > _MAX_BITS or (abs(b) > 1 and abs(Fraction(a)).numerator.bit_length()
                                        * abs(b) > _MAX_BITS)
        except (TypeError, ValueError, OverflowError):
            return True
    return False


def _exact_power(base: Fraction, exponent: Fraction) -> Fraction | None:
    """base ** exponent exactly, or None where it is irrational (or complex)."""
    if exponent.denominator == 1:
        return base ** int(exponent)
    if base < 0:
        return None
    root = []
    for part in (base.numerator, base.denominator):
        r = _integer_root(part ** abs(exponent.numerator), exponent.denominator)
        if r is None:
            return None
        root.append(r)
    out = Fraction(root[0], root[1])
    return out if exponent > 0 else 1 / out


def _integer_root(n: int, k: int) -> int | None:
    """The integer r with r ** k = n, or None."""
    if n.bit_length() > _MAX_BITS:
        return None
    lo, hi = 0, 1 << (n.bit_length() // k + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid ** k <= n:
            lo = mid
        else:
            hi = mid - 1
    return lo if lo ** k == n else None


def _values(node: ast.AST) -> tuple[Any, Any] | None:
    """(what Python folds ``node`` to, its exact value: a Fraction, or ``Unreadable``),
    or None where ``node`` is not a constant arithmetic expression this module reads."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
        if type(node.value) is float and not math.isfinite(node.value):
            return None
        return node.value, Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        inner = _values(node.operand)
        if inner is None or isinstance(inner[1], Unreadable):
            return None if inner is None else (_UNARY[type(node.op)](inner[0]), inner[1])
        op = _UNARY[type(node.op)]
        try:
            return op(inner[0]), (op(inner[1]) if op is not operator.invert
                                  else Fraction(~int(inner[1])))
        except TypeError:  # ~ of a float: not folded
            return None
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _values(node.left), _values(node.right)
        if left is None or right is None:
            return None
        op = _BINARY[type(node.op)]
        if _too_big(op, left[0], right[0]):
            return None
        try:
            python = op(left[0], right[0])
        except (ZeroDivisionError, OverflowError, TypeError, ValueError):
            return None
        if isinstance(left[1], Unreadable) or isinstance(right[1], Unreadable):
            return python, Unreadable(ast.unparse(node))
        try:
            if op is operator.pow:
                exact = _exact_power(left[1], right[1])
                return python, (Unreadable(ast.unparse(node)) if exact is None else exact)
            if op in (operator.lshift, operator.rshift, operator.and_, operator.or_,
                      operator.xor):
                return python, Fraction(op(int(left[1]), int(right[1])))
            return python, Fraction(op(left[1], right[1]))
        except (ZeroDivisionError, OverflowError, TypeError, ValueError):
            return None
    return None


def folded_constants(code: types.CodeType) -> dict[float, Fraction | Unreadable | None]:
    """Each double the compiler folded in ``code``'s source (nested functions and
    comprehensions included) mapped to the exact value of the expression it came from,
    where the two differ: a Fraction, ``Unreadable`` where that value is irrational, None
    where the double is ambiguous."""
    known = _CACHE.get(code)
    if known is not None:
        return known
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(code)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        _CACHE[code] = {}
        return {}
    folded: dict[float, list[Any]] = {}
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
        folded.setdefault(python, []).append(exact)
    out: dict[float, Fraction | Unreadable | None] = {}
    for d, ex in folded.items():
        unreadable = [x for x in ex if isinstance(x, Unreadable)]
        if unreadable:
            out[d] = unreadable[0]
        elif any(x != Fraction(d) for x in ex):  # (a fold equal to its double needs none)
            out[d] = ex[0] if len(set(ex)) == 1 and d not in literals else None
    _CACHE[code] = out
    return out
