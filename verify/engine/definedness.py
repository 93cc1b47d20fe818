"""Where a partial operation's value is used, and what it then needs.

A division, a root or a log is defined only on part of the reals (the NaN that a
numpy/Triton root or log of a negative, or 0/0 inside ``@triton.jit``, gives is
modelled instead: ``verify.engine.nan``; what remains is x/0 and log 0). Its value matters
only where the result uses it: ``where(s > 0, log s, 0)`` evaluates both lanes (Triton
and torch compute both) but uses log s only where s > 0. ``use_conditions`` walks the
result terms as a graph, top down, and gives each partial operation its *use guard*:
the disjunction, over the ways the result reaches it, of the ``If`` conditions on the
way. The operation then needs ``guard ⇒ condition``, and nothing where it is unused.

What it does not cover: operations that raise in Python when they run, used or not
(``math.sqrt``, ``/`` on Python numbers); the z3 interpretation records those with
their path when they run (``Z3Context.raising``).
"""
from __future__ import annotations

from typing import Any

import z3

from verify.engine import mathtext


def _children(ctx, t: z3.ExprRef) -> list[tuple[z3.ExprRef, Any]]:
    """(child, edge guard) pairs; the guard is None, a condition, or its negation."""
    tid = t.get_id()
    part = ctx.partial.get(tid)
    if part is not None:
        return [(part.arg, None)] if z3.is_expr(part.arg) else []
    base = ctx.exp_base.get(tid)
    if base is not None:
        return [(base, None)]
    if not z3.is_app(t):
        return []
    kind = t.decl().kind()
    if kind == z3.Z3_OP_ITE:
        c, a, b = t.children()
        return [(c, None), (a, c), (b, z3.Not(c))]
    if kind in (z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_IMPLIES):
        # a later operand matters only where the earlier ones leave the answer open
        # (the path conditions of forked branches are such conjunctions)
        kids = t.children()
        out = [(kids[0], None)]
        for i in range(1, len(kids)):
            before = kids[:i]
            if kind == z3.Z3_OP_AND:
                guard = z3.And(*before)
            elif kind == z3.Z3_OP_OR:
                guard = z3.Not(z3.Or(*before))
            else:
                guard = before[0]
            out.append((kids[i], guard))
        return out
    return [(c, None) for c in t.children()]


def _is_division(ctx, t: z3.ExprRef) -> bool:
    if not (z3.is_app(t) and t.decl().kind() in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV)):
        return False
    den = t.arg(1)
    return not (z3.is_rational_value(den) or z3.is_int_value(den)
                or ctx.is_exp_monomial(den))


def _topological(ctx, roots: list[z3.ExprRef]) -> list[z3.ExprRef]:
    """Terms reachable from ``roots``, every parent before its children."""
    seen: set[int] = set()
    order: list[z3.ExprRef] = []
    for root in roots:
        if root.get_id() in seen:
            continue
        seen.add(root.get_id())
        stack = [(root, iter(_children(ctx, root)))]
        while stack:
            node, it = stack[-1]
            for child, _ in it:
                if child.get_id() not in seen:
                    seen.add(child.get_id())
                    stack.append((child, iter(_children(ctx, child))))
                    break
            else:
                stack.pop()
                order.append(node)
    order.reverse()
    return order


def use_conditions(ctx, roots: list[Any]) -> list[tuple[z3.BoolRef, z3.BoolRef, str]]:
    """``[(use guard, condition, description)]`` for every partial operation the
    ``roots`` reach: divisions (denominator ≠ 0), roots and logs (their arguments)."""
    roots = [r for r in roots if z3.is_expr(r)]
    order = _topological(ctx, roots)
    guards: dict[int, list[z3.BoolRef]] = {r.get_id(): [z3.BoolVal(True)] for r in roots}
    always: set[int] = {r.get_id() for r in roots}
    out = []
    for node in order:
        nid = node.get_id()
        here = z3.BoolVal(True) if nid in always else z3.Or(*guards.get(nid, []))
        part = ctx.partial.get(nid)
        if part is not None and part.condition is not None:
            shown = mathtext.text(part.condition)
            out.append((here, part.condition, f"{part.text}: {shown}"))
        elif _is_division(ctx, node):
            num, den = node.children()
            shown = mathtext.text(den) + " ≠ 0"
            if nid in ctx.nan.sources:  # x/0 is ±∞ inside @triton.jit, 0/0 NaN
                out.append((here, z3.Or(den != 0, num == 0), shown + " (or 0/0, NaN)"))
            else:
                out.append((here, den != 0, shown))
        for child, edge in _children(ctx, node):
            cid = child.get_id()
            if cid in always:
                continue
            if edge is None and nid in always:
                always.add(cid)
                continue
            guard = here if edge is None else (edge if nid in always else z3.And(here, edge))
            guards.setdefault(cid, []).append(guard)
    return out
