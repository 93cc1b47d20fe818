"""The vocabulary table against what the interpretations really implement."""
from __future__ import annotations

import math

import mpmath
import pytest

from verify.engine import vocabulary
from verify.engine.mpwords import make_mpmath


def test_support_matrix_has_not_drifted(capsys):
    print(vocabulary.render())
    assert vocabulary.drift() == []


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
