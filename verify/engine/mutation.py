"""State changed in place: writes to a mutable object a function reaches through its
globals, closure cells or defaults, without any assignment to a name.

``state['n'] += 1`` on a dict held in a closure cell, ``_history.append(x)`` on a module
list, ``_seen.append(1)`` on a mutable default: Python shares the object between calls,
so each call sees what the earlier ones left, while the rebound copies of the function
(``verify.engine.interp``) and the proof about them assume a function of its arguments
alone. ``state_write(fn)`` names the first such write in ``fn`` (the object, how it is
reached, the line), or None. Found from the source (AST) of ``fn``:

- an item stored or deleted (``d[k] = v``, ``d[k] += 1``, ``del d[k]``), an in-place
  ``+=`` on a mutable default, a call of a mutating method (``append``, ``update``,
  ``sort``, …, and torch's ``add_``-style methods), a library call that changes its
  first argument (``random.shuffle``, ``heapq.heappush``, ``setattr``, …) or an ``out=``
  argument, on an object reached from a global, a closure variable or a mutable
  default — directly, through attributes and items, or through a local alias
  (``h = _history``; ``for row in TABLE``);
- a mutating method called through its class on such an object
  (``list.append(_log, x)``, ``dict.__setitem__(_state, k, v)``);
- any use of an iterator reached that way (a generator, ``iter([...])``,
  ``itertools.count()``): ``next`` advances it, and so do a loop, ``list``, ``zip``, …
  over it, so every reading of it is taken as a write;
- such an object passed to a user function that changes that parameter in place;
- an item written to a namespace: ``globals()[k] = v``, ``vars(obj)[k]``,
  ``obj.__dict__[k]`` (a function's attributes, a module's globals); an attribute set
  on a parameter or on state (``self.n += 1`` in a method);
- numpy's in-place writers: ``ufunc.at`` (``np.add.at(A, i, 1)``), a ufunc's output
  given by position (``np.add(A, 1, A)``), ``np.put``; a library callable that changes
  its first argument under any name (``_bump = np.add.at``);
- a callable that holds state and changes it when called (``held_state_write``): a
  bound method of state stored anywhere (``_push = _log.append``; ``push =
  _log.append`` inside the call; ``map(_log.append, xs)``: a mutating method handed
  on is taken as called), a ``functools.partial`` whose bound arguments its function
  changes in place (``partial(record, _log)``, ``partial(list.append, _log)``), a
  method of a user class or a callable object whose methods (property accessors
  included) change ``self``.

Conservative: an object is taken as state when it might be (an item of state, the
result of a method of state); a local object the function builds itself (``out = []``)
is not state. Does not cover: functions without source (nothing is found), and
library code that keeps state of its own (``random``'s generator).
"""
from __future__ import annotations

import ast
import collections.abc
import functools
import inspect
import textwrap
import types
from typing import Any

from verify.engine.interp import call_method, library, user_function
from verify.engine.mutation_words import FRESH_CALLS, MUTATING_CALLS, MUTATING_METHODS, mutable

# the name under which a wrapper made for an audited partial or callable object
# (``verify.auditing.load``) holds it
AUDITED_OBJECT = "_audited_callable_"
_MAX_DEPTH = 4
_CACHE: dict[int, tuple[Any, list]] = {}


def _kind(value: Any) -> str:
    return {list: "list", dict: "dict", set: "set"}.get(type(value), "object")


def _source(fn: types.FunctionType) -> tuple[ast.AST, int] | None:
    """The AST of ``fn`` and the line number of its first source line."""
    try:
        lines, start = inspect.getsourcelines(fn.__code__)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    first = fn.__code__.co_firstlineno - start + 1
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == fn.__name__:
            return node, start
        if isinstance(node, ast.Lambda) and node.lineno == first:
            return node, start
    return None


class _Scope:
    """What each name of one function refers to: state, a parameter, or neither."""

    def __init__(self, fn: types.FunctionType, node: ast.AST, params_are_roots: bool):
        code = fn.__code__
        self.fn = fn
        self.node = node
        n = code.co_argcount + code.co_kwonlyargcount
        self.params = list(code.co_varnames[:n])
        defaults = dict(zip(code.co_varnames[code.co_argcount - len(fn.__defaults__ or ()):
                                             code.co_argcount], fn.__defaults__ or ()))
        defaults.update(fn.__kwdefaults__ or {})
        self.defaults = defaults
        self.locals = set(code.co_varnames) | set(code.co_cellvars)
        self.free = dict(zip(code.co_freevars, fn.__closure__ or ()))
        self.params_are_roots = params_are_roots
        self.aliases: dict[str, str] = {}
        # local names bound to a method of state (``app = _history.append``)
        self.methods: dict[str, tuple[str, str]] = {}
        self._alias_fixpoint()

    # -- what a name or an expression refers to
    def static(self, expr: ast.AST) -> tuple[bool, Any]:
        """(known, value) of a name or attribute chain resolved from globals, closure
        cells and defaults, without running anything."""
        if isinstance(expr, ast.Name):
            name = expr.id
            if name in self.free:
                try:
                    return True, self.free[name].cell_contents
                except ValueError:
                    return False, None
            if name in self.locals:
                if name in self.defaults and name not in self.aliases:
                    return True, self.defaults[name]
                return False, None
            g = self.fn.__globals__
            if name in g:
                return True, g[name]
            b = g.get("__builtins__")
            b = vars(b) if isinstance(b, types.ModuleType) else (b or {})
            return (name in b), b.get(name)
        if isinstance(expr, ast.Attribute):
            known, value = self.static(expr.value)
            if known:
                try:
                    return True, inspect.getattr_static(value, expr.attr)
                except AttributeError:
                    return False, None
        return False, None

    def root(self, expr: ast.AST) -> str | None:
        """How ``expr`` may be state: a phrase naming the object, or None."""
        if isinstance(expr, ast.Name):
            name = expr.id
            if name in self.aliases:
                return self.aliases[name]
            if name in self.locals and name not in self.defaults:
                if self.params_are_roots and name in self.params:
                    return f"parameter:{name}"
                return None
        if isinstance(expr, ast.Attribute) and expr.attr == "__dict__":
            if isinstance(expr.value, ast.Name) and expr.value.id in self.locals \
                    and expr.value.id not in self.aliases:
                return self.root(expr.value)
            return f"the namespace {ast.unparse(expr)!r} (its attributes)"
        if isinstance(expr, (ast.Name, ast.Attribute)):
            known, value = self.static(expr)
            if known:
                return self._describe(expr, value) if mutable(value) else None
            if isinstance(expr, ast.Attribute):
                return self.root(expr.value)
            return None
        if isinstance(expr, ast.Subscript):
            return self.root(expr.value)
        if isinstance(expr, ast.Call):
            name = _called(expr)
            namespace = self._namespace(expr)
            if namespace:
                return namespace
            if name in FRESH_CALLS:
                return None
            if isinstance(expr.func, ast.Attribute):
                owner = self.root(expr.func.value)
                if owner:
                    return owner
            return next(filter(None, (self.root(a) for a in _arguments(expr))), None)
        if isinstance(expr, ast.IfExp):
            return self.root(expr.body) or self.root(expr.orelse)
        if isinstance(expr, ast.BoolOp):
            return next(filter(None, (self.root(v) for v in expr.values)), None)
        if isinstance(expr, (ast.Tuple, ast.List)):
            return next(filter(None, (self.root(v) for v in expr.elts)), None)
        if isinstance(expr, (ast.Starred, ast.NamedExpr)):
            return self.root(expr.value)
        return None

    def _namespace(self, call: ast.Call) -> str | None:
        """``globals()`` and ``vars(x)`` for an ``x`` the function does not build: the
        dict of a module's globals or of an object's attributes, changed in place by
        an item written to it."""
        known, value = self.static(call.func)
        if not known:
            return None
        if value is globals and not call.args:
            return "the module's globals (globals())"
        if value is vars and len(call.args) == 1:
            arg = call.args[0]
            if isinstance(arg, ast.Name) and arg.id in self.locals \
                    and arg.id not in self.aliases and arg.id not in self.defaults:
                return self.root(arg)
            return f"the namespace {ast.unparse(call)!r} (its attributes)"
        return None

    def _describe(self, expr: ast.AST, value: Any) -> str:
        text = ast.unparse(expr)
        head = expr
        while isinstance(head, ast.Attribute):
            head = head.value
        name = head.id if isinstance(head, ast.Name) else text
        if name in self.free:
            how = "a closure variable"
        elif name in self.defaults:
            how = f"the default of parameter {name!r}"
        else:
            how = "a module global"
        return f"the {_kind(value)} {text!r} ({how})"

    def _alias_fixpoint(self) -> None:
        """Local names bound to state (``h = _history``, ``for row in TABLE``)."""
        pairs: list[tuple[ast.AST, ast.AST]] = []
        for n in ast.walk(self.node):
            if isinstance(n, ast.Assign):
                pairs += [(t, n.value) for t in n.targets]
            elif isinstance(n, (ast.AnnAssign, ast.NamedExpr)) and n.value is not None:
                pairs.append((n.target, n.value))
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                pairs.append((n.target, n.iter))
            elif isinstance(n, ast.withitem) and n.optional_vars is not None:
                pairs.append((n.optional_vars, n.context_expr))
        changed = True
        while changed:
            changed = False
            for target, value in pairs:
                if isinstance(target, ast.Name) and isinstance(value, ast.Attribute) \
                        and target.id not in self.methods:
                    owner = self.root(value.value)
                    if owner:
                        self.methods[target.id] = (owner, value.attr)
                why = self.root(value)
                if not why:
                    continue
                for t in ast.walk(target):
                    if isinstance(t, ast.Name) and t.id not in self.aliases:
                        self.aliases[t.id] = why
                        changed = True


def _called(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _arguments(call: ast.Call) -> list[ast.AST]:
    return list(call.args) + [k.value for k in call.keywords]


def _writes(fn: types.FunctionType, params_are_roots: bool, depth: int = 0
            ) -> list[tuple[str, int, str]]:
    """Every in-place write in ``fn``: (object phrase, source line, how)."""
    key = id(fn) * 2 + params_are_roots
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is fn:
        return cached[1]
    found = _source(fn)
    out: list[tuple[str, int, str]] = []
    _CACHE[key] = (fn, out)  # before the walk: a recursive helper terminates
    if found is None:
        return out
    node, start = found
    scope = _Scope(fn, node, params_are_roots)

    def note(obj: str | None, at: ast.AST, how: str) -> None:
        if obj:
            out.append((obj, at.lineno + start - 1, how))

    for n in ast.walk(node):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Subscript):
                        how = ("an item deleted" if isinstance(n, ast.Delete) else
                               "an item changed (+= and the like)"
                               if isinstance(n, ast.AugAssign) else "an item assigned")
                        note(scope.root(sub.value), sub, how)
                    elif isinstance(sub, ast.Attribute) and \
                            isinstance(sub.ctx, (ast.Store, ast.Del)):
                        note(scope.root(sub.value), sub,
                             f"the attribute {sub.attr!r} " + (
                                 "deleted" if isinstance(n, ast.Delete) else "set"))
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                note(scope.root(n.target), n, "changed in place (+= and the like)")
        elif isinstance(n, ast.Call):
            name = _called(n)
            if isinstance(n.func, ast.Attribute) and (
                    name in MUTATING_METHODS or (name.endswith("_") and not name.startswith("_"))):
                known, value = scope.static(n.func.value)
                if known and isinstance(value, type) and n.args:
                    note(scope.root(n.args[0]), n, f"{ast.unparse(n.func)}()")
                elif not (known and not mutable(value)):
                    note(scope.root(n.func.value), n, f".{name}()")
            if name in MUTATING_CALLS and n.args:
                note(scope.root(n.args[0]), n, f"{name}()")
            for k in n.keywords:
                if k.arg == "out":
                    note(scope.root(k.value), n, f"{name}(out=…)")
            known, value = scope.static(n.func)
            if known and n.args and name not in MUTATING_CALLS and callable(value) \
                    and not isinstance(value, types.FunctionType) \
                    and getattr(value, "__name__", "") in MUTATING_CALLS:
                note(scope.root(n.args[0]), n, f"{value.__name__}() under the name {name!r}")
            if known and _ufunc(value) and len(n.args) > value.nin:
                for arg in n.args[value.nin:]:  # outputs given by position
                    note(scope.root(arg), n, f"{name}(…, out)")
            if known:
                held = held_state_write(value, depth + 1)
                if held:
                    text = ast.unparse(n.func)
                    note("the state the audited object holds" if text == AUDITED_OBJECT
                         else f"the state {text!r} holds", n, held)
            if isinstance(n.func, ast.Name) and n.func.id in scope.methods:
                owner, attr = scope.methods[n.func.id]
                if attr in MUTATING_METHODS or (attr.endswith("_") and not attr.startswith("_")):
                    note(owner, n, f".{attr}() through the local name {n.func.id!r}")
            if depth < _MAX_DEPTH:
                _helper_writes(scope, n, depth, note)
        elif isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load):
            known, value = scope.static(n)
            if known and _iterator(value):
                note(scope.root(n), n, "an iterator advanced (next, a loop, …)")
            if isinstance(n, ast.Attribute) and (n.attr in MUTATING_METHODS or (
                    n.attr.endswith("_") and not n.attr.startswith("_"))):
                # a mutating method of state handed on without a call here
                # (map(_log.append, xs), a callback): taken as called
                if not (known and not mutable(value) and not isinstance(
                        value, types.BuiltinMethodType)):
                    note(scope.root(n.value), n, f".{n.attr} (the method itself)")
            elif known and not isinstance(value, types.FunctionType):
                held = held_state_write(value, depth + 1)
                if held:
                    note(f"the state {ast.unparse(n)!r} holds", n, held)
    return out


def _ufunc(value: Any) -> bool:
    cls = type(value)
    return cls.__name__ == "ufunc" and cls.__module__ == "numpy" and hasattr(value, "nin")


def _changed_parameters(fn: types.FunctionType, depth: int) -> dict[str, tuple[int, str]]:
    """The parameters of ``fn`` it changes in place: name -> (line, how)."""
    if depth > _MAX_DEPTH:
        return {}
    return {obj.split(":", 1)[1]: (line, how) for obj, line, how in _writes(fn, True, depth)
            if obj.startswith("parameter:")}


def held_state_write(value: Any, depth: int = 0) -> str | None:
    """How calling ``value`` changes an object it holds, or None: a bound method
    (``app = _log.append``; a method of a user class that changes ``self``), a
    ``functools.partial`` whose bound arguments the function changes in place, a
    callable object whose ``__call__`` changes ``self``. A function of the user's own is
    not covered here (its writes are its own: ``state_write``)."""
    if isinstance(value, functools.partial):
        inner = held_state_write(value.func, depth)
        if inner:
            return inner
        fn = user_function(value.func)
        bound: list[tuple[str | int, Any]] = list(enumerate(value.args))
        bound += list(value.keywords.items())
        if fn is not None:
            names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
            changed = _changed_parameters(fn, depth)
            for key, arg in bound:
                name = names[key] if isinstance(key, int) and key < len(names) else key
                if name in changed and mutable(arg):
                    line, how = changed[name]
                    return (f"functools.partial binds a {_kind(arg)} to parameter {name!r} of "
                            f"{fn.__qualname__}, which changes it at line {line} ({how})")
            return None
        name = getattr(value.func, "__name__", "")
        if value.args and mutable(value.args[0]) and (
                name in MUTATING_METHODS or name in MUTATING_CALLS):
            return f"functools.partial binds a {_kind(value.args[0])} to {name}(), which changes it"
        return None
    if isinstance(value, types.MethodType):
        fn = user_function(value.__func__)
        owner = value.__self__
        if fn is None or isinstance(owner, (type, types.ModuleType)):
            return None
        first = fn.__code__.co_varnames[:1]
        changed = _changed_parameters(fn, depth)
        if first and first[0] in changed:
            line, how = changed[first[0]]
            return f"the method {fn.__qualname__} changes its object at line {line} ({how})"
        return None
    if isinstance(value, types.BuiltinMethodType):
        owner = getattr(value, "__self__", None)
        name = getattr(value, "__name__", "")
        if owner is None or isinstance(owner, types.ModuleType) or not mutable(owner):
            return None
        if _ufunc(owner):
            return None  # ufunc.at changes its first argument: seen at the call
        if name in MUTATING_METHODS or (name.endswith("_") and not name.startswith("_")):
            return f"the bound method {type(owner).__name__}.{name} changes its {_kind(owner)}"
        return None
    if call_method(value) is not None:
        for fn in class_methods(value):
            first = fn.__code__.co_varnames[:1]
            changed = _changed_parameters(fn, depth)
            if first and first[0] in changed:
                line, how = changed[first[0]]
                return (f"the callable object's {fn.__qualname__} changes the object at "
                        f"line {line} ({how})")
    return None


_CONSTRUCTORS = {"__init__", "__new__", "__init_subclass__", "__post_init__",
                 "__set_name__", "__class_getitem__"}


def class_methods(obj: Any) -> list[types.FunctionType]:
    """The user-written methods of ``obj``'s class (constructors aside: they ran
    before the object was handed over)."""
    out = []
    for cls in type(obj).__mro__:
        for name, v in vars(cls).items():
            if name in _CONSTRUCTORS:
                continue
            parts = [v.fget, v.fset, v.fdel] if isinstance(v, property) else \
                [v.__func__] if isinstance(v, (staticmethod, classmethod)) else [v]
            out += [fn for fn in map(user_function, parts) if fn is not None]
    return out


def _iterator(value: Any) -> bool:
    return isinstance(value, collections.abc.Iterator) and not isinstance(value, type)


def _helper_writes(scope: _Scope, call: ast.Call, depth: int, note) -> None:
    """State passed to a user function that changes that parameter in place."""
    known, callee = scope.static(call.func)
    callee = getattr(callee, "fn", callee)
    if not known or not isinstance(callee, types.FunctionType) or library(callee):
        return
    changed = {obj.split(":", 1)[1]: (line, how)
               for obj, line, how in _writes(callee, True, depth + 1)
               if obj.startswith("parameter:")}
    if not changed:
        return
    names = callee.__code__.co_varnames[:callee.__code__.co_argcount]
    passed = list(zip(names, call.args)) + [(k.arg, k.value) for k in call.keywords]
    for name, arg in passed:
        if name in changed:
            line, how = changed[name]
            note(scope.root(arg), call,
                 f"passed to {callee.__qualname__}, which changes it at line {line}: {how}")


def state_write(fn: types.FunctionType) -> str | None:
    """The first in-place write to state in ``fn`` (not in the functions it calls,
    except through a parameter), as a phrase, or None."""
    for obj, line, how in _writes(fn, False):
        if not obj.startswith("parameter:"):
            return f"{fn.__qualname__} changes {obj} in place at line {line} ({how})"
    return None
