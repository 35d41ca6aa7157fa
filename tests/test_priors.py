"""The priors (mechdesign.priors): make_prior, the one builder of named priors."""

from __future__ import annotations

import numpy as np
import pytest

from mechdesign.errors import InvalidInputError
from mechdesign.priors import make_prior


def test_make_prior_draws_one_prior_per_repetition():
    a, b = make_prior("dirichlet", 6, 0), make_prior("dirichlet", 6, 1)
    assert not np.allclose(a, b)
    np.testing.assert_allclose(make_prior("dirichlet", 6, 0), a, rtol=0)
    np.testing.assert_allclose(make_prior("uniform", 4), np.full(4, 0.25))
    with pytest.raises(InvalidInputError, match="prior must be one of"):
        make_prior("beta", 4)
