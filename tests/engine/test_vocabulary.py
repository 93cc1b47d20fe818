"""The vocabulary, computed from the interpretations' registrations, against what each
interpretation really does when its words are called."""
from __future__ import annotations

import math

import mpmath
import pytest

import verify.certification.bounds  # noqa: F401  (registers the ball interpretation)
import verify.decide.fpproof  # noqa: F401  (registers the IEEE z3 interpretation)
import verify.engine.arraywords  # noqa: F401  (registers torch and numpy)
import verify.engine.z3interp  # noqa: F401  (registers z3)
from verify.engine import vocabulary
from verify.engine.interp import Interpretation, Namespace, Unsupported
from verify.engine.mpwords import make_mpmath

COLUMNS = {"mpmath", "exact", "torch", "numpy", "z3", "z3-fp", "ball"}


def test_every_interpretation_is_a_column():
    assert set(vocabulary.REGISTRY) == COLUMNS


def test_registrations_match_what_the_words_do(capsys):
    print(vocabulary.render())
    assert vocabulary.drift() == []


def _lying_interpretation() -> Interpretation:
    def refuses(x):
        raise Unsupported("no meaning here")

    def works(x):
        return x

    works.unsupported = "declared unsupported"  # a stub that runs all the same
    return Interpretation("liar", Namespace("tl", exp=refuses, log=works),
                          Namespace("math", sqrt=lambda x: x), {})


def test_drift_names_a_word_held_but_refused_and_a_stub_that_runs():
    vocabulary.register("liar", _lying_interpretation, lambda: (7.0, vocabulary.run_directly),
                        "a namespace that misstates its words")
    try:
        lines = vocabulary.drift()
        matrix = vocabulary.support_matrix()
    finally:
        del vocabulary.REGISTRY["liar"]
    assert any(line.startswith("tl.exp:") and "liar" in line.split("runs")[0]
               for line in lines)
    assert "liar" not in matrix["tl.log"]  # the stub is not counted as support …
    assert any(line.startswith("tl.log:") and "liar" in line.split("runs")[1]
               for line in lines)  # … and its running is drift
    assert "liar" in matrix["math.sqrt"]
    assert not any(line.startswith("math.sqrt:") for line in lines)


def test_operators_are_probed_on_each_interpretation():
    ops = vocabulary.operator_matrix()
    assert ops["//"] == {"mpmath", "exact", "torch", "numpy", "z3"}
    assert "ball" not in ops["%"] and "z3-fp" not in ops["//"]


def test_the_oracle_covers_every_word_a_float_interpretation_has():
    """The mpmath oracle can evaluate whatever torch can: a word torch has and mpmath
    lacks would leave a float verdict without an oracle."""
    matrix = vocabulary.support_matrix()
    missing = sorted(w for w, where in matrix.items()
                     if "torch" in where and "mpmath" not in where and w.startswith("tl."))
    assert missing == []


@pytest.mark.parametrize("word, outside", [("log", -1), ("sqrt", -1), ("log1p", -2),
                                           ("log2", -1)])
def test_domains_are_what_python_and_triton_do(word, outside):
    """Outside its declared domain, math.<word> raises (as Python's does) and tl.<word>
    gives NaN (as Triton's does)."""
    assert word in vocabulary.DOMAINS
    mp = make_mpmath()
    with mpmath.workprec(113):
        tl_value = getattr(mp.tl, word)(mpmath.mpf(outside))
        assert mpmath.isnan(tl_value) or (isinstance(tl_value, mpmath.mpc))
        math_fn = getattr(mp.math, word, None)
        if math_fn is not None:
            with pytest.raises((ValueError, ZeroDivisionError)):
                math_fn(mpmath.mpf(outside))
    with pytest.raises(ValueError):
        getattr(math, word)(outside)
