"""The ball-arithmetic oracles: their stated error bounds hold against a much more
precise evaluation, and they refuse to return numbers they cannot vouch for."""
import math

import mpmath
import pytest
import torch
from flint import arb

from impls import exact
from impls.spec import Bound, Oracle
from verify.certification.certify import _with_oracle_error


def _mp_softmax(row, bits=400):
    with mpmath.workprec(bits):
        finite = [mpmath.mpf(v) for v in row if v != -math.inf]
        lse = mpmath.log(mpmath.fsum(mpmath.exp(v) for v in finite))
        return [mpmath.mpf(0) if v == -math.inf else mpmath.exp(mpmath.mpf(v) - lse)
                for v in row], lse


@pytest.mark.parametrize("row", [
    [0.0], [1.0, 2.0, 3.0], [-1e4, -1e4 + 1, -1e4 - 3.5], [3e4, -3e4, 0.0, 1e-30],
    [5.0, -math.inf, 5.0, -math.inf], [-745.0, 0.0],
])
def test_softmax_enclosure_holds(row):
    ys, lses, enclosure = exact.softmax_rows([row])
    want, lse = _mp_softmax(row)
    rel, absolute = enclosure.error_bound, enclosure.absolute_error_bound
    assert 0 <= rel <= 2.0 ** -52
    for got, true in zip(ys[0] + lses, want + [lse]):
        assert abs(mpmath.mpf(got) - true) <= rel * abs(true) + absolute


def test_fully_masked_row_follows_the_contract():
    ys, lses, _ = exact.softmax_rows([[-math.inf] * 3])
    assert ys == [[0.0, 0.0, 0.0]] and lses == [-math.inf]


def test_layer_norm_enclosure_holds():
    from fractions import Fraction
    row = [1.0, 2.0, 4.0, -8.5]
    n = len(row)
    mu = sum(Fraction(v) for v in row) / n
    m2 = sum((Fraction(v) - mu) ** 2 for v in row)
    ys, means, rstds, enclosure = exact.layer_norm_rows([row], [1.0] * n, [0.0] * n, 1e-5,
                                                   [(n, mu, m2)])
    with mpmath.workprec(400):
        rstd = 1 / mpmath.sqrt(mpmath.mpf(m2.numerator) / m2.denominator / n + mpmath.mpf(1e-5))
        for got, x in zip(ys[0], row):
            true = (mpmath.mpf(x) - mpmath.mpf(mu.numerator) / mu.denominator) * rstd
            assert abs(mpmath.mpf(got) - true) <= enclosure.error_bound * abs(true)


def test_a_wide_ball_is_refused():
    enc = exact.Enclosure("test")
    with pytest.raises(ArithmeticError, match="too wide"):
        enc.value(arb(1.0, 1e-12))
    with pytest.raises(ArithmeticError, match="near 0"):
        enc.value(arb(0.0, 1e-20))
    assert enc.value(arb(0.0)) == 0.0


def test_the_certifier_adds_a_guaranteed_oracle_error_to_the_bound():
    values = {"y": torch.tensor([2.0, -math.inf, 0.0], dtype=torch.float64)}
    bound = Bound({"y": torch.tensor([1e-6, 0.0, 0.0], dtype=torch.float64)}, "f")
    out = _with_oracle_error(bound, Oracle(values, "balls", error_bound=1e-16,
                                           absolute_error_bound=1e-30))
    assert out.formula == "f"
    y = out.values["y"]
    assert y[0] >= 1e-6 + 2e-16 and y[1] == 0.0 and y[2] >= 1e-30
    assert _with_oracle_error(bound, Oracle(values, "float64")).values["y"] is bound.values["y"]


def test_an_oracle_records_its_method_and_its_guarantee():
    assert Oracle({}, "float64").record() == "float64"
    assert Oracle({}, "f", {"rounding": "float64"}).record() == {"method": "f",
                                                               "rounding": "float64"}
    record = exact.Enclosure("t").oracle({}).record()
    assert record["error_bound"] == 0.0 and record["bits"] == exact.BITS
    assert "guaranteed" in record["error_bound_meaning"]
