"""Exercises against right and wrong answers.

Each file in ``tests/exercise_answers/`` is named ``<exercise>_<anything>.py``, holds one
function, and declares in its first line whether it must pass (``# expect: pass``) or
fail (``# expect: fail [CHECK]``, naming the check that must fail first). A failing
combine must come with a counterexample that replays here in high precision (the
learner's function evaluated in mpmath, independently of the engine's oracle), and
every wrong answer with a hint.
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
from pathlib import Path

import mpmath
import pytest
import torch

from laws.core import fold
from verify import api
from verify.cli.main import main as cli_main
from verify.teaching import exercise as X
from verify.auditing.audit import load_target
from verify.engine.arraywords import make_torch
from verify.engine.mpwords import make_mpmath

ANSWERS = Path(__file__).resolve().parents[1] / "exercise_answers"
MP = make_mpmath()
TORCH = make_torch()


def answer_files():
    return sorted(ANSWERS.glob("*.py"))


def exercise_of(path: Path) -> str:
    names = sorted(X.BY_NAME, key=len, reverse=True)
    return next(n for n in names if path.stem.startswith(n + "_"))


def function_name(path: Path) -> str:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (name,) = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    return name


def expectation(path: Path) -> tuple[str, str | None]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect:")
    words = first[len("# expect:"):].split()
    return words[0], (words[1] if len(words) > 1 else None)


def _mp(v):
    if isinstance(v, list):
        return tuple(_mp(x) for x in v)
    if isinstance(v, str):
        if v in ("inf", "-inf"):
            return mpmath.mpf(v)
        num, _, den = v.partition("/")
        return mpmath.mpf(int(num)) / int(den)
    return mpmath.mpf(v)


def _flat(x):
    if isinstance(x, (list, tuple)):
        return [c for v in x for c in _flat(v)]
    return [x]


def _differ(a, b) -> bool:
    A, B = _flat(a), _flat(b)
    tol = mpmath.mpf(10) ** -40
    return any(abs(mpmath.mpf(x) - mpmath.mpf(y)) > tol * max(1, abs(x), abs(y))
               or (mpmath.isinf(x) or mpmath.isinf(y)) and x != y
               for x, y in zip(A, B, strict=False))


def replay(ex: X.Exercise, fn, check: dict) -> bool:
    """The failing check's two sides, recomputed at 200 bits: they must differ."""
    f = MP.rebind(fn)
    k = ex.state.shape[0] if ex.state is not None and ex.state.shape else 0
    F = (lambda a, b: tuple(f(a, b))) if k else f
    ce = {name: _mp(v) for name, v in check["counterexample"].items()}
    with mpmath.workprec(200):
        if check["check"] == "associative":
            a, b, c = ce["a"], ce["b"], ce["c"]
            return _differ(F(F(a, b), c), F(a, F(b, c)))
        assert check["check"].startswith("homomorphism_n")
        xs = [ce[f"x{i + 1}"] for i in range(len(ce))]
        lift, lower, spec = (MP.rebind(ex.lift), MP.rebind(ex.lower), MP.rebind(ex.spec))
        return _differ(lower(fold(F, [lift(x) for x in xs])), spec(list(xs)))


@pytest.mark.parametrize("path", answer_files(), ids=lambda p: p.stem)
def test_answer(path: Path):
    name = exercise_of(path)
    ex = X.BY_NAME[name]
    want, first_failure = expectation(path)
    fn_name = function_name(path)
    result = api.check_exercise(name, f"{path}:{fn_name}")
    assert result["passed"] == (want == "pass"), result["message"]
    if want == "pass":
        assert result["hint"] is None and result["explanation"]
    else:
        assert result["hint"], "a wrong answer comes with a hint"
    fn, _, _ = load_target(f"{path}:{fn_name}")
    checks = result.get("checks", [])
    refuted = [c for c in checks if c["verdict"] == "refuted"]
    if first_failure:
        assert refuted and refuted[0]["check"] == first_failure, checks
    for c in refuted:
        assert c["counterexample"], c
        if c["check"].startswith("associative_float"):
            a, b, cc = (torch.tensor(float(c["counterexample"][k]), dtype=torch.float32)
                        for k in "abc")
            g = TORCH.rebind(fn)
            assert float(g(g(a, b), cc)) != float(g(a, g(b, cc)))
        else:
            assert replay(ex, fn, c), f"{path.name}: {c['check']} does not replay"
            assert c["steps"]["lhs_calls"] or c["steps"]["rhs_calls"] or c["check"] != "associative"
    if ex.kind == "question" and not checks:
        # a True/False answer: the catalog's evidence is shown either way
        ev = result["evidence"]
        assert ev and ev["counterexample"] or (ev.get("float") or {}).get("counterexample")


def test_every_exercise_has_right_and_wrong_answers():
    seen: dict[str, set[str]] = {}
    for path in answer_files():
        want, _ = expectation(path)
        seen.setdefault(exercise_of(path), set()).add(want)
    for ex in X.EXERCISES:
        assert seen.get(ex.name) == {"pass", "fail"}, ex.name


def _cli(name=None, target=None, json=True):
    argv = ["exercise"] + [a for a in (name, target) if a] + (["--json"] if json else [])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    return code, out.getvalue(), err.getvalue()


def test_cli_list_state_check():
    code, out, _ = _cli()
    assert code == 0
    names = [e["name"] for e in json.loads(out)["exercises"]]
    assert names == [e.name for e in X.EXERCISES]
    code, out, _ = _cli(name="welford")
    assert code == 0 and "(n, μ, M₂)" in json.loads(out)["prompt"]
    code, out, _ = _cli(name="welford", target=f"{ANSWERS / 'welford_right.py'}:combine")
    assert code == 0 and json.loads(out)["passed"] is True
    code, out, _ = _cli(name="welford", target=f"{ANSWERS / 'welford_wrong.py'}:combine")
    doc = json.loads(out)
    assert code == 1 and doc["passed"] is False and doc["hint"]
    # the readable form shows the counterexample and the hint
    code, out, _ = _cli(name="welford", target=f"{ANSWERS / 'welford_wrong.py'}:combine",
                        json=False)
    assert code == 1 and "Hint" in out and "combine(" in out


@pytest.mark.parametrize("kw, message", [
    (dict(name="welfrod"), "unknown exercise 'welfrod' (did you mean: welford?)"),
    (dict(name="welford", target="nope.py:combine"), "no such file"),
    (dict(name="welford", target=f"{ANSWERS / 'median_right.py'}:answer"),
     "takes no parameters"),
    (dict(name="welford", target=f"{ANSWERS / 'running_mean_right.py'}:missing"),
     "no function named"),
])
def test_cli_bad_input(kw, message):
    code, out, err = _cli(**kw)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize("source, message", [
    ("def combine(a, b):\n    return None\n", "returned None"),
    ("def combine(a, b):\n    raise ValueError('no')\n", "raised ValueError: no"),
    ("def combine(a, b):\n    while True:\n        pass\n", "ran past"),
    ("def combine(a, b):\n    return (a[0],)\n", "returned 1 values: the state has 2"),
    ("async def combine(a, b):\n    return a\n", "async function"),
    ("def combine(a, b):\n    yield a\n", "generator"),
    ("class combine:\n    def __init__(self, a, b):\n        pass\n", "not a Python function"),
])
def test_bad_answers_are_bad_input(tmp_path, source, message, monkeypatch):
    monkeypatch.setattr(X, "PROBE_SECONDS", 1)
    path = tmp_path / "answer.py"
    path.write_text(source)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, out, err = _cli(name="running_mean", target=f"{path}:combine")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert message in err and err.startswith("verify: error: ")
