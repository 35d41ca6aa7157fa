"""The restricted master (mechdesign.optimal.master): its duals price its own columns out,
pruning keeps the basis, the optimum and the dual, and bad input is refused.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mechdesign as md
from mechdesign.optimal import (
    LinearisationSource,
    PatternSource,
    RestrictedMaster,
    run_column_generation,
)
from mechdesign.optimal.master import column_key
from tests.helpers import ldp_vertices_by_bits, mutual_information_of_columns


def test_restricted_master_duals_price_its_own_columns_out():
    rng = np.random.default_rng(4)
    n = 6
    prior = rng.dirichlet(np.ones(n))
    columns = ldp_vertices_by_bits(1.0, n)
    values = mutual_information_of_columns(prior, columns)
    master = RestrictedMaster(n)
    master.add(columns[:20], values[:20])
    master.add(columns[20:], values[20:])
    theta, dual, objective = master.solve()
    assert np.all(values - columns @ dual <= 1e-9)
    assert theta @ values == pytest.approx(objective, abs=1e-12)
    assert dual.sum() == pytest.approx(objective, abs=1e-9)


def test_restricted_master_and_loop_refuse_bad_input():
    master = RestrictedMaster(3)
    with pytest.raises(md.InvalidInputError, match="shape"):
        master.add(np.ones((2, 4)) / 4, np.zeros(2))
    with pytest.raises(md.InvalidInputError, match="shape"):
        master.add(np.ones((2, 3)) / 3, np.zeros(3))
    with pytest.raises(md.InvalidInputError, match="finite"):
        master.add(np.full((1, 3), np.nan), np.zeros(1))
    with pytest.raises(md.InvalidInputError, match="n"):
        RestrictedMaster(0)
    with pytest.raises(md.InvalidInputError, match="gap"):
        run_column_generation(PatternSource(md.LDP(1.0), np.full(3, 1 / 3)), gap=float("nan"))
    with pytest.raises(md.UnsupportedError, match="RobustLDP"):
        LinearisationSource(md.LDP(1.0), np.full(3, 1 / 3))


# -- column management and dual smoothing ------------------------------------------------


def test_pruning_keeps_the_basis_the_optimum_and_the_dual():
    """RestrictedMaster.prune deletes non-basic columns of least reduced cost: the LP
    optimum over the kept columns equals scipy's over all of them, the dual still prices
    every original column out, and a pruned column can be added again."""
    from scipy.optimize import linprog

    rng = np.random.default_rng(11)
    n = 7
    prior = rng.dirichlet(np.ones(n))
    columns = ldp_vertices_by_bits(1.3, n)
    values = mutual_information_of_columns(prior, columns)
    reference = linprog(-values, A_eq=columns.T, b_eq=np.ones(n), bounds=(0, None))
    master = RestrictedMaster(n)
    master.add(columns, values)
    theta, dual, objective = master.solve()
    keep = 10
    kept = master.prune(keep, dual)
    assert kept.shape == (columns.shape[0],)
    assert master.size == int(kept.sum()) == master.columns.shape[0]
    assert master.added == columns.shape[0]
    assert np.all(kept[theta > 0])  # the positive weights are basic, and stay
    assert master.size <= max(keep, n)
    reduced = values - columns @ dual
    dropped = ~kept
    assert dropped.any()
    # The kept non-basic columns are the best ones (ties aside).
    nonbasic_kept = kept & (theta <= 0)
    if nonbasic_kept.any():
        assert reduced[nonbasic_kept].min() >= reduced[dropped].max() - 1e-12
    _, dual2, objective2 = master.solve()
    assert objective2 == pytest.approx(-reference.fun, abs=1e-10)
    assert objective == pytest.approx(objective2, abs=1e-12)
    assert np.all(values - columns @ dual2 <= 1e-9)  # dual feasible for every column
    assert np.all(master.values - master.columns @ dual2 <= 1e-9)
    # Protected: every column within `protect` of improving stays, whatever `keep` says.
    protected = RestrictedMaster(n)
    protected.add(columns, values)
    _, dual3, _ = protected.solve()
    reduced3 = values - columns @ dual3
    margin = float(np.quantile(-reduced3[reduced3 < 0], 0.5))
    kept3 = protected.prune(1, dual3, protect=margin)
    assert np.all(kept3[reduced3 >= -margin])
    assert not np.any(kept3[(reduced3 < -margin) & (theta <= 0)])
    lost = np.flatnonzero(dropped)[0]
    assert column_key(columns[lost]) not in master.keys
    master.add(columns[lost:lost + 1], values[lost:lost + 1])
    assert master.size == int(kept.sum()) + 1


# -- offset form ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 3.0, -2.0]), min_size=1,
                         max_size=9), min_size=1, max_size=6))
def test_most_frequent_entries_agree_with_a_counter(rows):
    from collections import Counter

    from mechdesign.optimal.master import most_frequent_entries

    width = min(len(r) for r in rows)
    matrix = np.array([r[:width] for r in rows])
    got = most_frequent_entries(matrix)
    for row, value in zip(matrix, got, strict=True):
        counts = Counter(row.tolist())
        top = max(counts.values())
        assert value == min(v for v, c in counts.items() if c == top)  # exact: an entry


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(1, 25), st.integers(0, 2**32 - 1), st.booleans())
def test_the_offset_form_solves_the_master_of_any_columns(n, m, seed, levelled):
    """Columns with few levels (as pattern columns) or all entries distinct: the master's
    optimum is scipy's LP over the same columns, and its dual (the first N rows of the
    offset form) prices every column out with 1·λ equal to the optimum."""
    from scipy.optimize import linprog

    rng = np.random.default_rng(seed)
    if levelled:
        levels = rng.uniform(0.1, 2.0, size=3)
        columns = levels[rng.integers(0, 3, size=(m, n))]
    else:
        columns = rng.uniform(0.1, 2.0, size=(m, n))
    columns = np.vstack([columns / columns.sum(axis=1, keepdims=True), np.full((1, n), 1 / n)])
    values = rng.uniform(0.0, 1.0, size=columns.shape[0])
    reference = linprog(-values, A_eq=columns.T, b_eq=np.ones(n), bounds=(0, None))
    master = RestrictedMaster(n)
    master.add(columns, values)
    theta, dual, objective = master.solve()
    assert objective == pytest.approx(-reference.fun, abs=1e-9)
    assert theta @ values == pytest.approx(objective, abs=1e-9)
    assert np.all(theta >= -1e-12)
    np.testing.assert_allclose(columns.T @ theta, np.ones(n), atol=1e-9)
    assert np.all(values - columns @ dual <= 1e-9)
    assert dual.sum() == pytest.approx(objective, abs=1e-9)
