"""Float-law searches start from what the catalog's float check found."""
import pytest

import laws
from verify.certification.float_laws import check_float_law
from verify.decide.floats import seeds
from verify.errors import BadInput
from verify.testing import assert_float_law


def _law(law_id):
    return next(law for law in laws.REGISTRY if law.id == law_id)


def test_the_catalog_float_counterexample_seeds_the_float_law_search():
    law = _law("welford.identity")
    found = seeds(law, "float16")
    assert found[0] == [1.0, -512.0, 0.0]          # the catalog's NaN in float16
    assert any(abs(x) > 1e4 for x in found[-1])      # a near-overflow point
    assert check_float_law(law, "float16").verdict.value == "refuted"


def test_an_unknown_format_is_refused():
    with pytest.raises(BadInput, match="unknown floating-point format"):
        seeds(_law("welford.identity"), "float17")
    with pytest.raises(BadInput, match="unknown floating-point format 'float128'"):
        assert_float_law("sum.associative", "float128")
