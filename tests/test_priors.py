"""The priors (mechdesign.priors): make_prior, the one builder of named priors."""

from __future__ import annotations

import numpy as np
import pytest

from mechdesign.errors import InvalidInputError
from mechdesign.priors import four_level_prior, make_prior, zipf_prior


def test_make_prior_draws_one_prior_per_repetition():
    a, b = make_prior("dirichlet", 6, 0), make_prior("dirichlet", 6, 1)
    assert not np.allclose(a, b)
    np.testing.assert_allclose(make_prior("dirichlet", 6, 0), a, rtol=0)
    np.testing.assert_allclose(make_prior("uniform", 4), np.full(4, 0.25))
    with pytest.raises(InvalidInputError, match="prior must be one of"):
        make_prior("beta", 4)


def test_four_level_prior():
    """Sec. V-B: blocks of k/4 at (1 − 3ρ, 1 − ρ, 1 + ρ, 1 + 3ρ)/k."""
    np.testing.assert_allclose(
        four_level_prior(8, 0.1),
        np.repeat([0.7, 0.9, 1.1, 1.3], 2) / 8,
        rtol=0,
        atol=1e-15,
    )
    assert four_level_prior(20, 0.2).sum() == pytest.approx(1.0, abs=1e-15)


def test_zipf_prior_by_hand():
    weights = [1.0, 2**-1.1, 3**-1.1]
    np.testing.assert_allclose(zipf_prior(3), np.array(weights) / sum(weights),
                               rtol=1e-12)
    prior = zipf_prior(4, 0.5)
    np.testing.assert_allclose(prior[0] / prior[3], 2.0)
    with pytest.raises(InvalidInputError, match="exponent"):
        zipf_prior(3, -1.0)


def test_the_old_places_answer_with_the_same_functions():
    import mechdesign as md

    with pytest.warns(DeprecationWarning, match=r"use mechdesign\.priors\.four_level_prior"):
        assert md.bounds.four_level_prior is four_level_prior
    assert "four_level_prior" not in md.bounds.__all__  # exported once, by mechdesign.priors
    assert md.comparison.zipf_prior is zipf_prior
