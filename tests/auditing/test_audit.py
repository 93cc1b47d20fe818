"""The auditor against a soundness test set.

Each file in ``tests/audit_cases/`` holds one function and declares the verdicts the
auditor must reach in its first line::

    # expect: kind=binary associative=proved commutative=refuted identity.element=0

``NAME=V1|V2`` accepts either verdict, ``NAME.element=JSON`` checks the identity element
(or a locality field with ``locality.radius=1``), ``NAME.float32=exact`` a float verdict,
``NAME.assumes=TEXT`` that a stated assumption contains TEXT (``none``: no assumption),
``NAME.evidence=in-domain`` that every point the reason cites lies in the declared domain.
A ``# target: NAME`` line in the leading comment block audits the module-level object
``NAME`` (a ``functools.partial``, a bound method, a callable object) instead of the
file's one function, as in ``tests/audit_cases/adversarial/``.
Every counterexample in the report is replayed here, independently of the engine's
oracle: the user's function is evaluated in mpmath at 200 and 300 bits and the two sides
of the property must differ, both finite reals; every float counterexample is replayed
in its format and must differ bit for bit.
"""
from __future__ import annotations

import json
import math
import os
import re
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import torch

from verify.auditing import audit as A
from verify.cli.main import main as cli_main
from verify.decide.policy import AUDIT
from verify.engine.arraywords import make_torch
from verify.engine.interp import Unsupported
from verify.engine.mpwords import make_mpmath

CASES = Path(__file__).resolve().parents[1] / "audit_cases"
ROOT = Path(__file__).resolve().parents[2]
MP = make_mpmath()
TORCH = make_torch()
POLICY = AUDIT.with_(float_seconds=3, search_seconds=20)


def case_files():
    return sorted(p for p in CASES.glob("*.py") if not p.name.startswith("_"))


def expectations(path: Path) -> dict[str, object]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect:"), f"{path.name}: first line must be '# expect: …'"
    out = {}
    for token in shlex.split(first[len("# expect:"):], posix=False):
        key, _, value = token.partition("=")
        assert value, f"{path.name}: bad token {token!r}"
        out[key] = value
    return out


def function_name(path: Path) -> str:
    import ast
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if not line.startswith("#"):
            break
        named = re.match(r"#\s*target:\s*(\S+)", line)
        if named:
            return named.group(1)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert len(names) == 1, f"{path.name}: one function per case file, or a '# target:' line"
    return names[0]


# ----------------------------------------------------------------------------- replay
def to_mp(v):
    if isinstance(v, list):
        return [to_mp(x) for x in v]
    if isinstance(v, str):
        if v in ("inf", "-inf"):
            return mpmath.mpf(v)
        q = Fraction(v)
        return mpmath.mpf(q.numerator) / q.denominator
    return mpmath.mpf(v)


def flat(x):
    if isinstance(x, (list, tuple)):
        return [c for v in x for c in flat(v)]
    return [x]


def caller(fn, report):
    """The function as the properties call it, under the mpmath interpretation."""
    mp_fn = MP.rebind(fn)
    unpacked = any(n.startswith("unpacked combine") for n in report["notes"])
    if report["kind"] == "vector":
        return lambda x: mp_fn(list(x))
    if unpacked:
        return lambda a, b: tuple(mp_fn(*a, *b))
    params = report["parameters"]
    if len(params) == 2:
        def two(a, b):
            a = tuple(a) if isinstance(a, list) else a
            b = tuple(b) if isinstance(b, list) else b
            return mp_fn(a, b)
        return two
    return mp_fn


def mul(u, v):
    return [a * b for a, b in zip(u, v, strict=False)] if isinstance(u, (list, tuple)) else u * v


def add(u, v):
    return [a + b for a, b in zip(u, v, strict=False)] if isinstance(u, (list, tuple)) else u + v


def swap(x):
    return [x[1], x[0]] + list(x[2:])


def cycle(x):
    return list(x[1:]) + [x[0]]


def sides(name: str, kind: str, F, args, element=None):
    """Both sides of each property, restated here independently of the auditor."""
    if kind in ("binary", "two-argument"):
        table = {
            "associative": lambda a, b, c: (F(F(a, b), c), F(a, F(b, c))),
            "commutative": lambda a, b: (F(a, b), F(b, a)),
            "symmetric": lambda a, b: (F(a, b), F(b, a)),
            "idempotent": lambda a: (F(a, a), a),
            "separable": lambda x, x2, y, y2: (mul(F(x, y), F(x2, y2)),
                                               mul(F(x, y2), F(x2, y))),
            "additively_separable": lambda x, x2, y, y2: (add(F(x, y), F(x2, y2)),
                                                          add(F(x, y2), F(x2, y))),
            "identity": lambda a: ((F(element, a), F(a, element)), (a, a)),
        }
    elif kind == "unary":
        table = {
            "additive": lambda x, y: (F(x + y), add(F(x), F(y))),
            "monotone": lambda x, y: (F(max(x, y)), max(F(x), F(y))),
            "exponential": lambda x, y: (F(x + y), F(x) * F(y)),
            "idempotent": lambda x: (F(F(x)), F(x)),
        }
    else:
        table = {
            "shift_equivariant": lambda x: (F(cycle(x)), cycle(F(x))),
            "linear": lambda s, x, y: (F([s * a + b for a, b in zip(x, y, strict=False)]),
                                       add([s * v for v in F(x)] if isinstance(F(x), (list, tuple))
                                           else s * F(x), F(y))),
        }
        if name == "permutation_invariant":
            x, = args
            return [(F(swap(x)), F(x)), (F(cycle(x)), F(x))]
        if name == "permutation_equivariant":
            x, = args
            return [(F(swap(x)), swap(F(x))), (F(cycle(x)), cycle(F(x)))]
    return [table[name](*args)]


def differ(lhs, rhs) -> bool:
    L, R = flat(lhs), flat(rhs)
    assert len(L) == len(R)
    for a, b in zip(L, R, strict=False):
        a, b = mpmath.mpmathify(a), mpmath.mpmathify(b)
        if mpmath.isnan(a) != mpmath.isnan(b):
            return True
        if abs(a - b) > mpmath.mpf(10) ** -40 * max(1, abs(a), abs(b)):
            return True
    return False


def finite_reals(*values) -> bool:
    return all(isinstance(mpmath.mpmathify(c), mpmath.mpf) and mpmath.isfinite(c)
               for v in values for c in flat(v))


def replay_reals(name, kind, F, args, element=None) -> bool:
    """The sides differ at 200 and at 300 bits, and are finite reals (False where the
    mpmath reading refuses the function: one that writes state, say)."""
    verdicts = []
    for prec in (200, 300):
        with mpmath.workprec(prec):
            try:
                pairs = sides(name, kind, F, [to_mp(a) for a in args],
                              to_mp(element) if element is not None else None)
            except (Unsupported, TypeError):  # TypeError: a word defined on ints only
                return False
            verdicts.append(any(differ(lhs, rhs) and finite_reals(lhs, rhs) for lhs, rhs in pairs))
    return all(verdicts)


def plain_caller(fn, report):
    """The original function as the properties call it, nothing rebound."""
    unpacked = any(n.startswith("unpacked combine") for n in report["notes"])
    if report["kind"] == "vector":
        return lambda x: fn(list(x))
    if unpacked:
        return lambda a, b: tuple(fn(*a, *b))
    if len(report["parameters"]) == 2:
        return lambda a, b: fn(tuple(a) if isinstance(a, list) else a,
                               tuple(b) if isinstance(b, list) else b)
    return fn


def replay_plain(name, report, fn, args) -> bool:
    """The sides differ when the original function runs as Python runs it: on Python
    floats, by more than 2⁻²⁰ of the sides' size, or a NaN or an infinity against
    another value (functions that keep state, test types or identities are only faithful
    there)."""
    F = plain_caller(fn, report)

    def conv(v, number=float):
        return [conv(x, number) for x in v] if isinstance(v, list) else number(Fraction(v))
    try:
        try:
            pairs = sides(name, report["kind"], F, [conv(a) for a in args])
        except TypeError:  # a function Python runs on ints only (a ^ b)
            if any(Fraction(c).denominator != 1 for a in args for c in flat(a)):
                return False
            pairs = sides(name, report["kind"], F, [conv(a, int) for a in args])
    except (ArithmeticError, ValueError):
        return False
    for lhs, rhs in pairs:
        for a, b in zip(flat(lhs), flat(rhs), strict=True):
            a, b = float(a), float(b)
            if (a != a) != (b != b):
                return True
            if a != b and (math.isinf(a) or math.isinf(b)):  # ∞ against another value
                return True
            if a == a and abs(a - b) > 2.0 ** -20 * max(1.0, abs(a), abs(b)):
                return True
    return False


def replay_float(name, kind, fn, report, fmt, args, element=None) -> bool:
    dtype = {"float32": torch.float32, "float64": torch.float64}[fmt]
    t_fn = TORCH.rebind(fn)

    def conv(v):
        if isinstance(v, list):
            return [conv(x) for x in v]
        return torch.tensor(float(v), dtype=dtype)

    unpacked = any(n.startswith("unpacked combine") for n in report["notes"])
    if kind == "vector":
        F = lambda x: t_fn(list(x))  # noqa: E731
    elif unpacked:
        F = lambda a, b: tuple(t_fn(*a, *b))  # noqa: E731
    elif len(report["parameters"]) == 2:
        F = lambda a, b: t_fn(tuple(a) if isinstance(a, list) else a,  # noqa: E731
                              tuple(b) if isinstance(b, list) else b)
    else:
        F = t_fn
    e = None
    if element is not None:
        e = tuple(float(c) for c in element) if isinstance(element, list) else float(element)
    pairs = sides(name, kind, F, [conv(a) for a in args], e)
    for left, right in pairs:
        L, R = [float(c) for c in flat(left)], [float(c) for c in flat(right)]
        if any(not (a == b or (a != a and b != b)) for a, b in zip(L, R, strict=False)):
            return True
    return False


def evidence_outside_domain(path: Path, name: str, reason: str) -> list[str]:
    """The points a reason cites ("fails at a = X", "at a ∈ {…}") that lie outside the
    domain the function declares for its parameters."""
    from verify.auditing.declared import stated
    from verify.engine import domains
    fn, _, _ = A.load_target(f"{path}:{name}")
    doms = [domains.get(d) for d in stated(fn).values()]
    cited = re.findall(r"fails at a = (-?[0-9/.]+)", reason)
    for group in re.findall(r"at a ∈ \{([^}]*)\}", reason):
        cited += [x.strip() for x in group.split(",")]
    assert cited, f"no points cited in {reason!r}"
    return [x for x in cited if not all(d.contains(Fraction(x)) for d in doms)]


# ----------------------------------------------------------------------------- the test
@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_audit_case(path: Path):
    expect = expectations(path)
    name = function_name(path)
    report = A.audit(f"{path}:{name}", policy=POLICY)
    props = report["properties"]
    problems = []
    for key, want in expect.items():
        if key == "kind":
            if report["kind"] != want:
                problems.append(f"kind: {report['kind']} ≠ {want}")
            continue
        prop, _, field_ = key.partition(".")
        if prop not in props:
            problems.append(f"{prop}: not in the report ({sorted(props)})")
            continue
        p = props[prop]
        if not field_:
            if p["reals"]["verdict"] not in want.split("|"):
                problems.append(f"{prop}: {p['reals']['verdict']} ∉ {want} "
                                f"({p['reals'].get('reason')})")
        elif field_ in ("float32", "float64"):
            if p[field_]["verdict"] not in want.split("|"):
                problems.append(f"{prop}.{field_}: {p[field_]['verdict']} ∉ {want}")
        elif field_ == "element":
            if p["reals"]["element"] != json.loads(want):
                problems.append(f"{prop}.element: {p['reals']['element']} ≠ {want}")
        elif field_ == "assumes":
            got = p["reals"]["assumptions"] or []
            if (want == "none" and got) or (want != "none" and not any(want in a for a in got)):
                problems.append(f"{prop}.assumes: {got} has no {want!r}")
        elif field_ == "evidence":
            outside = evidence_outside_domain(path, name, p["reals"].get("reason") or "")
            if outside:
                problems.append(f"{prop}.evidence: {outside} outside the declared domain")
        else:
            got = (p["reals"]["element"] or {}).get(field_)
            if got != json.loads(want):
                problems.append(f"{prop}.{field_}: {got} ≠ {want}")
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)

    fn, _, _ = A.load_target(f"{path}:{name}")
    F = caller(fn, report)
    for prop, p in props.items():
        r = p["reals"]
        # A counterexample exactly when refuted, and it replays in high precision.
        # (an ``error`` is a proof the function contradicts: it shows the point)
        if r["verdict"] != "error":
            assert (r["counterexample"] is not None) == (
                r["verdict"] == "refuted" and prop != "identity"), (prop, r)
        if r["counterexample"] is not None:
            # the plain replay on a fresh import: a function that keeps state in its
            # module starts from it as handed over
            fresh, _, _ = A.load_target(f"{path}:{name}")
            assert replay_reals(prop, report["kind"], F, r["counterexample"]) or \
                replay_plain(prop, report, fresh, r["counterexample"]), \
                f"{path.name}: {prop} counterexample {r['counterexample']} does not replay"
        # An identity element only when proved or tested.
        if prop == "identity":
            assert (r["element"] is not None) == (r["verdict"] in A.HOLDING), r
        if r["verdict"] in A.HOLDING and prop != "locality":
            assert p["licenses"], prop
        for fmt in ("float32", "float64"):
            fv = p[fmt]
            if fv.get("counterexample") is not None:
                assert fv["verdict"] == "inexact"
                assert replay_float(prop, report["kind"], fn, report, fmt,
                                    fv["counterexample"], r.get("element")), \
                    f"{path.name}: {prop} {fmt} counterexample does not replay"
    if "locality" in props:
        el = props["locality"]["reals"]["element"]
        for key, (x, y) in el["witnesses"].items():
            i, j = map(int, key.split(","))
            with mpmath.workprec(200):
                xs = to_mp(x)
                moved = list(xs)
                moved[j] = to_mp(y)
                a, b = F(xs), F(moved)
                if isinstance(a, (list, tuple)):
                    a, b = a[i], b[i]
                assert differ(a, b), f"{path.name}: output {i} does not depend on x[{j}]"


def test_enough_cases():
    files = case_files()
    assert len(files) >= 40
    kinds = {expectations(p).get("kind") for p in files}
    assert {"binary", "two-argument", "vector", "unary"} <= kinds


# ----------------------------------------------------------------------------- bad input
def _cli(target: str, example: str | None = None, as_json: bool = True):
    """``python -m verify audit`` in this process (the user's file still runs in a child
    process): exit status, stdout, stderr."""
    import contextlib
    import io
    argv = ["audit", target] + (["--example", example] if example else [])
    argv += ["--json"] if as_json else []
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("source, target, message", [
    (None, "{dir}/missing.py:f", "no such file"),
    ("def f(a, b):\n    return a + b\n", "{dir}/m.txt:f", "not a .py file"),
    ("def f(a, b)\n    return a\n", "{dir}/m.py:f", "syntax error"),
    ("def f(a, b):\n    return a + b\n", "{dir}/m.py:g", "no function named 'g'"),
    ("def f():\n    return 1\n", "{dir}/m.py:f", "takes no parameters"),
    ("def f(a, b, c):\n    return a\n", "{dir}/m.py:f", "takes 3 parameters"),
    ("def f(a, b):\n    raise RuntimeError('boom')\n", "{dir}/m.py:f", "raised on the probe"),
    ("def f(a, b):\n    return a + b\n", "{dir}/m.py", "expected FILE.py:FUNC"),
    ("raise ImportError('nope')\ndef f(a, b):\n    return a\n", "{dir}/m.py:f",
     "importing the file failed"),
])
def test_bad_input(tmp_path: Path, source, target, message):
    target = target.format(dir=tmp_path)
    if source is not None:
        path = Path(target.rpartition(":")[0] if target.count(":") else target)
        path.write_text(source)
    code, out, err = _cli(target)
    assert code == 2
    assert out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_example(tmp_path: Path):
    path = tmp_path / "m.py"
    path.write_text("def f(a, b):\n    return a + b\n")
    for example in ("((1, 2", "(1,)", "('a', 'b')", "(1j, 2)"):
        code, out, err = _cli(f"{path}:f", example)
        assert code == 2 and out == "" and err.count("\n") == 1, (example, err)


def test_a_failing_example_call_is_named_without_asking_for_an_example(tmp_path: Path):
    path = tmp_path / "m.py"
    path.write_text("def f(a, b):\n    raise RuntimeError('boom')\n")
    code, out, err = _cli(f"{path}:f", "(1.0, 2.0)")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "raised on the --example call (RuntimeError: boom)" in err
    assert "give one example" not in err


def test_a_word_the_oracle_lacks_leaves_the_verdicts_to_the_rest(tmp_path: Path):
    # np.float32 has no mpmath reading: the shapes come from a plain-Python call and each
    # property is unknown with the word named, instead of exit status 2.
    path = tmp_path / "m.py"
    path.write_text("import numpy as np\n\n\ndef f(a, b):\n"
                    "    return float(np.float32(a) + np.float32(b))\n")
    code, out, err = _cli(f"{path}:f")
    assert code in (0, 1), err
    report = json.loads(out)
    assert report["kind"] == "binary"
    assert any("plain-Python call" in n and "np.float32" in n for n in report["notes"])
    for prop in ("associative", "commutative"):
        reals = report["properties"][prop]["reals"]
        assert reals["verdict"] == "unknown" and "np.float32" in reals["reason"]


def test_example_fixes_shapes(tmp_path: Path):
    # zip over both tuples: the body does not say the length; the example does.
    path = tmp_path / "m.py"
    path.write_text("def f(a, b):\n    return tuple(x + y for x, y in zip(a, b))\n")
    code, out, err = _cli(f"{path}:f", "((1.0, 2.0, 3.0), (4.0, 5.0, 6.0))")
    assert code == 0, err
    report = json.loads(out)
    assert report["parameters"] == ["tuple of 3", "tuple of 3"]
    assert report["properties"]["associative"]["reals"]["verdict"] == "proved"
    assert report["properties"]["identity"]["reals"]["element"] == [0, 0, 0]


def test_cli_json_and_readable():
    target = f"{CASES / 'subtract.py'}:f"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "verify", "audit", target, "--json"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout)
    assoc = doc["properties"]["associative"]
    assert assoc["reals"]["verdict"] == "refuted"
    assert set(assoc) >= {"reals", "float32", "float64", "licenses"}
    assert set(assoc["reals"]) >= {"verdict", "counterexample", "element"}
    # readable form: the counterexample evaluated step by step
    code, text, _ = _cli(target, as_json=False)
    assert code == 0
    assert "associative fails" in text and "f(" in text and "left  side" in text.replace(
        "left side", "left  side")


def test_the_row_check_reaches_overflow(tmp_path: Path):
    # a·b − a·b is 0 over the reals but inf − inf = NaN once a·a overflows (a ≈ 2⁷⁰ in
    # float32): the rows must include values near overflow.
    from verify.auditing import floats as audit_floats
    from verify.auditing import properties, signature
    path = tmp_path / "m.py"
    path.write_text("def f(a, b):\n    return max(a + (a * b - a * b), b)\n")
    fn, _, _ = A.load_target(f"{path}:f")
    sig = signature.analyse(fn)
    law = properties.make_law(properties.binary_props(sig)[2], signature.wrap(fn, sig))
    rows = audit_floats._float_rows(law, "float32")
    assert rows["verdict"] == "inexact" and rows["sides"]["lhs"] != rows["sides"]["lhs"]
    import numpy as np
    for dtype, big in ((torch.float32, 2.0 ** 70), (torch.float16, 2.0 ** 14)):
        inputs = audit_floats._row_inputs(law, dtype, np.random.default_rng(0))
        assert max(abs(x) for row in inputs for x in row) >= big


def test_the_same_function_gets_the_same_counterexample_whatever_ran_before():
    # z3's answer depends on the ids of the terms it sees; each query is asked in a
    # context of its own, so terms built earlier in the process change nothing.
    import z3
    target = "tests/audit_cases/adversarial/h1_abs_via_log_where.py:f"

    def counterexamples():
        report = A.audit(target, policy=POLICY).to_json()
        return {k: p["reals"]["counterexample"] for k, p in report["properties"].items()}

    first = counterexamples()
    xs = [z3.Real(f"unrelated{i}") for i in range(3000)]
    unrelated = [xs[i] * xs[(7 * i) % 3000] + i for i in range(3000)]
    assert len(unrelated) == 3000
    assert counterexamples() == first
    assert first["associative"] is not None
