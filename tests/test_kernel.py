"""Tests of the Mechanism type, composition, reduction, sampling and estimation, and its
JSON (Mechanism.to_json / from_json): exact round trips and refusals by name.
"""

from __future__ import annotations

import json
import math

import cvxpy as cp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import mechdesign as md
from mechdesign.errors import InvalidInputError
from mechdesign.status import Status
from tests.helpers import distributions, kernels, random_kernel

RR3 = [[0.75, 0.25], [0.25, 0.75]]


# -- validation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matrix", "fragment"),
    [
        ([[0.5, 0.6], [0.5, 0.5]], "row-stochastic"),
        ([[1.2, -0.2], [0.5, 0.5]], "non-negative"),
        ([[math.nan, 1.0], [0.5, 0.5]], "finite"),
        ([[math.inf, 1.0], [0.5, 0.5]], "finite"),
        ([0.5, 0.5], "2-dimensional"),
        (np.zeros((0, 2)), "empty"),
        ([["a", "b"]], "not text"),
    ],
)
def test_mechanism_rejects_bad_matrices(matrix, fragment):
    with pytest.raises(md.InvalidInputError, match=fragment) as info:
        md.Mechanism(matrix)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith("matrix ")  # the argument, by its name


def test_mechanism_rows_sum_within_named_tolerance():
    almost = [[0.5, 0.5 + 1e-11], [0.3, 0.7]]
    assert md.Mechanism(almost).matrix[0, 1] == 0.5 + 1e-11  # kept, not renormalised
    with pytest.raises(md.InvalidInputError):
        md.Mechanism([[0.5, 0.5 + 1e-6], [0.3, 0.7]])
    assert md.Mechanism([[0.5, 0.5 + 1e-6], [0.3, 0.7]], atol=1e-5).shape == (2, 2)


def test_mechanism_is_immutable_and_copies_its_input():
    source = np.array(RR3)
    k = md.Mechanism(source)
    source[0, 0] = 0.0
    assert k.matrix[0, 0] == 0.75  # exact: the input, stored as given
    with pytest.raises(ValueError, match="read-only"):
        k.matrix[0, 0] = 0.1
    with pytest.raises(AttributeError):
        k.matrix = np.eye(2)  # type: ignore[misc]


def test_mechanism_equality_and_hash():
    assert md.Mechanism(RR3) == md.Mechanism(np.array(RR3))
    assert hash(md.Mechanism(RR3)) == hash(md.Mechanism(RR3))
    assert md.Mechanism(RR3) != md.Mechanism(np.eye(2))


def test_from_columns_is_the_transpose_orientation():
    # Robust-LDP paper orientation: Q[y, x]; its columns are inputs and sum to one.
    q = np.array([[0.9, 0.2, 0.5], [0.1, 0.8, 0.5]])
    k = md.Mechanism.from_columns(q)
    assert k.shape == (3, 2)
    np.testing.assert_array_equal(k.matrix, q.T)
    np.testing.assert_array_equal(k.to_columns(), q)
    with pytest.raises(md.InvalidInputError):
        md.Mechanism.from_columns(q.T)  # rows of the transpose do not sum to one


# -- distributions and composition ---------------------------------------------------------


def test_output_joint_and_posterior_against_loops():
    rng = np.random.default_rng(1)
    k = random_kernel(rng, 4, 3)
    p = rng.dirichlet(np.ones(4))
    mech = md.Mechanism(k)
    p_y = [sum(p[x] * k[x, y] for x in range(4)) for y in range(3)]
    np.testing.assert_allclose(mech.output_distribution(p), p_y, rtol=1e-14, atol=0)
    joint = mech.joint_distribution(p)
    for x in range(4):
        for y in range(3):
            assert joint[x, y] == pytest.approx(p[x] * k[x, y], rel=1e-14)
    post = mech.posterior(p)
    np.testing.assert_allclose(post.sum(axis=0), 1.0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(post[1, 2], p[1] * k[1, 2] / p_y[2], rtol=1e-14)


def test_prior_validation():
    k = md.Mechanism(RR3)
    with pytest.raises(md.InvalidInputError, match="prior must have length 2"):
        k.output_distribution([1 / 3, 1 / 3, 1 / 3])
    with pytest.raises(md.InvalidInputError, match="prior must sum to 1"):
        k.output_distribution([0.5, 0.6])
    with pytest.raises(md.InvalidInputError, match="prior must be non-negative"):
        k.output_distribution([1.5, -0.5])


def test_posterior_of_impossible_output_raises():
    k = md.Mechanism([[1.0, 0.0], [0.5, 0.5]])
    with pytest.raises(md.InvalidInputError, match="output 1"):
        k.posterior([1.0, 0.0])


@given(kernels(), st.data())
def test_then_is_matrix_product_and_processing_contracts(k, data):
    post = data.draw(kernels(n=k.shape[1]))
    composed = md.Mechanism(k).then(post)
    np.testing.assert_allclose(composed.matrix, k @ post, rtol=1e-12, atol=1e-15)
    # Data processing of the Dobrushin coefficient: η(K K') ≤ min(η(K), η(K')).
    eta = md.dobrushin_coefficient(composed)
    assert eta <= min(md.dobrushin_coefficient(k), md.dobrushin_coefficient(post)) + 1e-12


def test_then_rejects_wrong_shape():
    with pytest.raises(md.InvalidInputError, match="post must have one row per output"):
        md.Mechanism(RR3).then(np.eye(3))


# -- reduced mechanism ----------------------------------------------------------------------


def test_reduced_form_of_envelope_example1():
    # Envelope paper, App. C: outcomes 3 and 4 of eq. (7) are similar.
    k = md.reproduce.PAPER_EXAMPLES["envelope-example1"].mechanism
    expected = [[0, 0, 1], [0, 0, 1], [0, 0.2, 0.8], [0.2, 0, 0.8]]
    assert md.kernel.output_classes(k) == [[0], [1], [2, 3]]
    np.testing.assert_allclose(k.reduced().matrix, expected, rtol=0, atol=1e-15)


def _classes_pair_by_pair(k, rtol):
    """The classes of output_classes's definition, comparing each column with every
    class's first column in turn (the first that matches takes it)."""
    k = np.asarray(k, dtype=float)
    classes, firsts = [], []
    for y in range(k.shape[1]):
        total = k[:, y].sum()
        if total == 0:
            continue
        column = k[:, y] / total
        for group, first in zip(classes, firsts, strict=True):
            if np.max(np.abs(column - first)) <= rtol * max(first.max(), column.max()):
                group.append(y)
                break
        else:
            classes.append([y])
            firsts.append(column)
    return classes


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 7), st.integers(1, 10), st.integers(0, 2**32 - 1),
       st.sampled_from([1e-9, 1e-6, 0.1]))
def test_output_classes_agree_with_the_pair_by_pair_definition(n, distinct, seed, rtol):
    """Outputs planted as multiples of a few columns, some nudged by about the
    tolerance, some zero: the same classes as comparing every pair in order."""
    rng = np.random.default_rng(seed)
    base = rng.random((n, distinct)) * (rng.random((n, distinct)) < 0.7) + 1e-3
    picks = rng.integers(0, distinct, 2 * distinct)
    scale = rng.choice([0.5, 1.0, 3.0], picks.size)
    nudge = 1 + rtol * rng.choice([0.0, 0.5, 2.0], (n, picks.size))
    k = base[:, picks] * scale * nudge
    zero = rng.random(picks.size) < 0.15
    zero[0] = False  # every row keeps some mass
    k[:, zero] = 0.0
    k = k / k.sum(axis=1, keepdims=True)
    assert md.kernel.output_classes(k, rtol=rtol) == _classes_pair_by_pair(k, rtol)


def test_output_classes_of_randomized_response_at_scale():
    """k-RR's k outputs are pairwise apart (each peaks at its own input) and merge with
    nothing; the columns of a kernel repeated twice merge in pairs."""
    k = md.mechanisms.closed_forms.randomized_response(2048, 12.0).matrix
    assert md.kernel.output_classes(k) == [[y] for y in range(2048)]
    twice = np.hstack([k, k]) / 2
    assert md.kernel.output_classes(twice) == [[y, y + 2048] for y in range(2048)]


def test_reduced_drops_zero_columns_and_merges_scaled_ones():
    k = md.Mechanism([[0.1, 0.0, 0.2, 0.3, 0.4], [0.3, 0.0, 0.6, 0.05, 0.05]])
    # column 2 is twice column 0; column 1 never occurs
    assert md.kernel.output_classes(k) == [[0, 2], [3], [4]]
    np.testing.assert_allclose(
        k.reduced().matrix, [[0.3, 0.3, 0.4], [0.9, 0.05, 0.05]], rtol=0, atol=1e-15
    )


@given(kernels(allow_zeros=True), st.data())
def test_splitting_outputs_then_reducing_preserves_every_leakage(k, data):
    """Splitting each output into scaled copies is a post-processing whose reduction
    recovers the original classes; the leakage quantities must not change."""
    n, m = k.shape
    prior = data.draw(distributions(n))
    shares = [data.draw(distributions(2, allow_zeros=False)) for _ in range(m)]
    split = np.column_stack([k[:, y] * s for y in range(m) for s in shares[y]])
    split = split / split.sum(axis=1, keepdims=True)
    reduced = md.Mechanism(split).reduced()
    original = md.Mechanism(k).reduced()
    assert reduced.shape == original.shape
    assert md.mutual_information(reduced, prior) == pytest.approx(
        md.mutual_information(k, prior), rel=1e-9, abs=1e-12
    )
    assert md.maximal_leakage(reduced) == pytest.approx(md.maximal_leakage(k), rel=1e-9)
    assert md.pml_level(reduced, prior) == pytest.approx(md.pml_level(k, prior), rel=1e-9)


# -- sampling -------------------------------------------------------------------------------


def test_sample_matches_rows_goodness_of_fit():
    k = md.Mechanism([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    x = np.array([0] * 20_000 + [1] * 20_000)
    y = k.sample(x, rng=12345)
    assert y.shape == x.shape
    assert y.dtype.kind == "i"
    for row in (0, 1):
        observed = np.bincount(y[x == row], minlength=3)
        expected = 20_000 * k.matrix[row]
        # Fixed seed, so deterministic; the threshold guards against a wrong distribution.
        assert stats.chisquare(observed, expected).pvalue > 1e-3


@settings(max_examples=40, deadline=None)
@given(K=kernels(min_size=1, max_size=6), seed=st.integers(0, 2**32 - 1),
       size=st.integers(0, 60))
def test_sample_draws_what_generator_choice_draws(K, seed, size):
    """The documented contract: the draws are those of numpy's ``Generator.choice(M,
    p=K[x])`` called once per input value, in increasing order, over the draws of that
    value in their original order."""
    mechanism = md.Mechanism(K)
    x = np.random.default_rng(seed).integers(0, K.shape[0], size)
    reference = np.empty(size, dtype=np.int64)
    generator = np.random.default_rng(seed + 1)
    for value in np.unique(x):
        where = np.flatnonzero(x == value)
        reference[where] = generator.choice(K.shape[1], size=where.size,
                                            p=mechanism.matrix[value])
    assert np.array_equal(mechanism.sample(x, seed + 1), reference)


def test_sample_never_draws_zero_probability_outputs_and_keeps_shape():
    k = md.Mechanism([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]])
    x = np.array([[0, 1, 1], [1, 0, 0]])
    y = k.sample(x, rng=np.random.default_rng(0))
    assert y.shape == (2, 3)
    assert np.all(y[x == 0] == 1)
    assert np.all(y[x == 1] != 1)


@pytest.mark.parametrize("bad", [[0, 2], [-1], [0.5, 1.0]])
def test_sample_rejects_bad_inputs(bad):
    with pytest.raises(md.InvalidInputError, match="x must hold"):
        md.Mechanism(RR3).sample(np.array(bad), rng=0)


# -- estimating the input distribution ----------------------------------------------------------


def test_inverse_estimate_recovers_prior_from_exact_frequencies():
    rng = np.random.default_rng(3)
    k = random_kernel(rng, 4, 6)
    prior = np.array([0.1, 0.2, 0.3, 0.4])
    counts = prior @ k * 1e6  # exact expected counts
    est = md.kernel.estimate_input_distribution(k, counts=counts, method="inverse")
    np.testing.assert_allclose(est, prior, rtol=0, atol=1e-12)


def test_inverse_estimate_projects_onto_the_simplex():
    k = np.array(RR3)
    # Every sample on output 0: the raw inverse is (1.5, -0.5); its projection is (1, 0).
    est = md.kernel.estimate_input_distribution(k, outputs=np.zeros(10, dtype=int),
                                                method="inverse")
    np.testing.assert_allclose(est, [1.0, 0.0], rtol=0, atol=1e-15)


def test_projection_matches_a_convex_solver():
    rng = np.random.default_rng(7)
    for _ in range(5):
        v = rng.normal(size=6)
        w = cp.Variable(6)
        cp.Problem(cp.Minimize(cp.sum_squares(w - v)), [w >= 0, cp.sum(w) == 1]).solve()
        np.testing.assert_allclose(md.kernel.project_to_simplex(v), w.value, rtol=0, atol=1e-6)


def test_em_matches_maximum_likelihood_by_convex_solver():
    """With fewer outputs than inputs K is not invertible; EM must reach the ML value."""
    rng = np.random.default_rng(11)
    k = random_kernel(rng, 4, 3)
    counts = np.array([50.0, 30.0, 20.0])
    with pytest.warns(md.kernel.NotIdentifiableWarning, match="rank 3 < 4"):
        est = md.kernel.estimate_input_distribution(k, counts=counts, method="em")
    p = cp.Variable(4)
    objective = cp.Maximize(counts @ cp.log(k.T @ p))
    ml = cp.Problem(objective, [p >= 0, cp.sum(p) == 1]).solve()
    assert counts @ np.log(est @ k) == pytest.approx(ml, rel=1e-6)
    assert est.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(est >= 0)


def test_a_kernel_that_cannot_identify_the_distribution_is_refused_by_name():
    """Two identical rows: every split of their total gives the same outputs, so only
    the total is identified. 'auto' (and 'inverse') refuse, naming kernel and its rank."""
    k = np.array([[0.6, 0.3, 0.1], [0.6, 0.3, 0.1], [0.1, 0.2, 0.7]])
    assert np.linalg.matrix_rank(k) == 2
    # The unidentifiability itself, checked by hand: two priors, one output law.
    assert np.allclose(
        np.array([0.5, 0.0, 0.5]) @ k, np.array([0.1, 0.4, 0.5]) @ k, rtol=0, atol=1e-15
    )
    counts = np.array([30.0, 30.0, 40.0])
    for method in ("auto", "inverse"):
        with pytest.raises(md.InvalidInputError, match=r"kernel has rank 2 < 3 inputs") as info:
            md.kernel.estimate_input_distribution(k, counts=counts, method=method)
        message = str(info.value)
        assert "not identifiable" in message
        assert "span of the kernel's columns" in message
        assert "method='em'" in message
    # Fewer outputs than inputs: rank at most M.
    with pytest.raises(md.InvalidInputError, match=r"kernel has rank 2 < 3 inputs"):
        md.kernel.estimate_input_distribution([[0.5, 0.5], [0.2, 0.8], [0.9, 0.1]], counts=[3, 4])


def test_em_on_a_rank_deficient_kernel_warns_and_fits_the_identified_part():
    k = np.array([[0.6, 0.3, 0.1], [0.6, 0.3, 0.1], [0.1, 0.2, 0.7]])
    truth = np.array([0.1, 0.4, 0.5])
    counts = truth @ k * 1e6  # exact expected counts
    with pytest.warns(md.kernel.NotIdentifiableWarning, match="rank 2 < 3") as record:
        est = md.kernel.estimate_input_distribution(k, counts=counts, method="em")
    assert len(record) == 1
    assert "one of many" in str(record[0].message)
    assert issubclass(md.kernel.NotIdentifiableWarning, UserWarning)
    # What is identified, the total of the identical rows and the third entry, is right;
    # the split is EM's choice (its symmetric start keeps the two equal here).
    assert est[0] + est[1] == pytest.approx(truth[0] + truth[1], abs=1e-6)
    assert est[2] == pytest.approx(truth[2], abs=1e-6)
    np.testing.assert_allclose(est @ k, truth @ k, rtol=0, atol=1e-6)


def test_a_full_rank_kernel_is_estimated_as_before_without_a_warning():
    import warnings

    rng = np.random.default_rng(3)
    k = random_kernel(rng, 3, 4)
    truth = np.array([0.2, 0.3, 0.5])
    counts = truth @ k * 1e6
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning of any kind
        auto = md.kernel.estimate_input_distribution(k, counts=counts)
        inverse = md.kernel.estimate_input_distribution(k, counts=counts, method="inverse")
        em = md.kernel.estimate_input_distribution(k, counts=counts, method="em")
    np.testing.assert_allclose(auto, inverse, rtol=0, atol=1e-15)  # auto is the inverse
    np.testing.assert_allclose(auto, truth, rtol=0, atol=1e-12)
    np.testing.assert_allclose(em, truth, rtol=0, atol=1e-6)


def test_estimator_is_close_to_truth_on_privatised_samples():
    k = md.Mechanism([[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]])
    prior = np.array([0.5, 0.3, 0.2])
    rng = np.random.default_rng(2024)
    x = rng.choice(3, size=40_000, p=prior)
    y = k.sample(x, rng=rng)
    for method in ("inverse", "em"):
        est = md.kernel.estimate_input_distribution(k, y, method=method)
        # Standard error of the inverse estimate here is about 0.006 per entry.
        np.testing.assert_allclose(est, prior, rtol=0, atol=0.03)


def test_estimator_input_errors():
    k = np.array(RR3)
    with pytest.raises(md.InvalidInputError, match="exactly one"):
        md.kernel.estimate_input_distribution(k)
    with pytest.raises(md.InvalidInputError, match="outputs must hold"):
        md.kernel.estimate_input_distribution(k, outputs=[0, 2])
    with pytest.raises(md.InvalidInputError, match="counts must have length 2"):
        md.kernel.estimate_input_distribution(k, counts=[1, 2, 3])
    with pytest.raises(md.InvalidInputError, match="method"):
        md.kernel.estimate_input_distribution(k, counts=[1, 1], method="magic")  # type: ignore[arg-type]
    with pytest.raises(md.InvalidInputError, match="full row rank"):
        md.kernel.estimate_input_distribution(
            [[0.5, 0.5], [0.5, 0.5]], counts=[1, 1], method="inverse"
        )


def test_em_iteration_limit_raises_solver_error():
    k = random_kernel(np.random.default_rng(5), 4, 3)
    with pytest.raises(md.SolverError) as info, pytest.warns(md.kernel.NotIdentifiableWarning):
        md.kernel.estimate_input_distribution(k, counts=[5, 3, 2], method="em", max_iter=2)
    assert info.value.status is Status.ITERATION_LIMIT


def test_sample_rejects_bad_rng():
    with pytest.raises(md.InvalidInputError, match="rng must be"):
        md.Mechanism(RR3).sample([0, 1], rng="seed")


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        ([[1.0, 0.0], [0.5, 0.6]], "row 2 (index 1) sums to 1.1."),
        ([[1.0, 0.0], [1.5, -0.5]], "row 2, column 2 (index (1, 1)) is -0.5."),
        ([[1.0, float("nan")], [0.5, 0.5]], "row 1, column 2 (index (0, 1)) is nan."),
        (np.array([[1.0, 0.0], [0.5, 0.6]]), "sums to 1.1."),
    ],
)
def test_validation_counts_rows_from_one_and_shows_plain_numbers(matrix, message):
    with pytest.raises(md.InvalidInputError) as info:
        md.Mechanism(matrix)
    assert message in str(info.value)
    assert "np.float64" not in str(info.value)


@settings(max_examples=40, deadline=None)
@given(K=kernels(min_size=1, max_size=6))
def test_round_trip_is_bit_exact(K):
    saved = md.Mechanism(K).to_json()
    back = md.Mechanism.from_json(saved)
    assert np.array_equal(back.matrix, md.Mechanism(K).matrix)   # exact: the claim itself


def test_document_fields():
    K = md.randomized_response(3, 1.0)
    document = json.loads(K.to_json(input_labels=["a", "b", "c"], output_labels=[0, 1, 2],
                                    notion="LDP(1)", epsilon=math.inf))
    assert document["format"] == "mechdesign.mechanism"
    assert document["format_version"] == 1
    assert document["input_labels"] == ["a", "b", "c"]
    assert document["output_labels"] == [0, 1, 2]
    assert document["notion"] == "LDP(1)"
    assert document["epsilon"] == "inf"          # JSON has no infinity
    assert document["mechdesign_version"] == md.__version__


def test_extreme_entries_survive():
    K = np.array([[1 - 5e-324, 5e-324], [1e-300, 1 - 1e-300]])
    back = md.Mechanism.from_json(md.Mechanism(K).to_json())
    assert back.matrix[0, 1] == 5e-324    # exact: a subnormal written and read back
    assert back.matrix[1, 0] == 1e-300    # exact: likewise


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"input_labels": ["a", "b"]}, "input_labels"),
    ({"output_labels": [0, 1, True]}, "output_labels"),
    ({"input_labels": [0.5, 1, 2]}, "input_labels"),
    ({"epsilon": -1.0}, "epsilon"),
    ({"epsilon": math.nan}, "epsilon"),
])
def test_bad_metadata_is_refused_by_name(kwargs, name):
    with pytest.raises(InvalidInputError, match=name):
        md.randomized_response(3, 1.0).to_json(**kwargs)


@pytest.mark.parametrize("text", [
    "not json", "[1, 2]", '{"format": "other", "format_version": 1, "matrix": [[1]]}',
    '{"format": "mechdesign.mechanism", "format_version": 99, "matrix": [[1]]}',
    '{"format": "mechdesign.mechanism", "format_version": 1, "matrix": [[0.5, 0.6]]}',
])
def test_bad_documents_are_refused(text):
    with pytest.raises(InvalidInputError):
        md.Mechanism.from_json(text)
