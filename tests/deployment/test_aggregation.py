"""md.Aggregator: the streaming aggregate of users' reports (mechdesign.deployment).

Written from the specification, not the implementation. Every reference here is computed
from scratch with numpy/scipy: the BLUE as a weighted least-squares fit, the standard
estimator through pinv, a sort-based simplex projection, the MLE by SLSQP on the simplex,
and k-ary randomized response's classic closed form. Then: streaming equals batch, the
intervals' formulas, their coverage by simulation, and bad input.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg
from scipy.optimize import minimize
from scipy.stats import norm

import mechdesign as md

RTOL, ATOL = 1e-9, 1e-12  # linear algebra on well-conditioned 3x5 / 4x4 kernels
MLE_ATOL = 1e-6  # EM (stopped "at convergence") against SLSQP, both iterative
LINEAR = ("blue", "standard")
ALL_ESTIMATORS = ("blue", "standard", "least_squares", "ibu", "mle")


# -- references, written from the formulas -------------------------------------------------


def _krr(k: int, eps: float) -> np.ndarray:
    """k-ary randomized response: a = e^ε/(e^ε+k−1) on the diagonal, b = 1/(e^ε+k−1) off it."""
    a, b = _krr_ab(k, eps)
    return np.full((k, k), b) + (a - b) * np.eye(k)


def _krr_ab(k: int, eps: float) -> tuple[float, float]:
    denominator = math.exp(eps) + k - 1
    return math.exp(eps) / denominator, 1.0 / denominator


def _random_kernel(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    """A generic (full row rank, strictly positive) N x M row-stochastic kernel."""
    return rng.dirichlet(np.full(m, 2.0), size=n)


def _reports(counts: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
    """Reports with the given counts (in a random order when rng is given)."""
    reports = np.repeat(np.arange(len(counts)), counts)
    return rng.permutation(reports) if rng is not None else reports


def _blue_matrix(kernel: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """E (M x N) of the BLUE by generalised least squares, solved from scratch.

    Under the prior the output frequencies have covariance ∝ D = diag(prior @ K) (up to a
    rank-one term that does not change the fit, since K 1 = 1), so the BLUE of p from π̂
    minimises ||D^{-1/2}(Kᵀ f − π̂)||². Row y of E is that fit for π̂ = e_y; all rows at once:
    lstsq(D^{-1/2} Kᵀ, D^{-1/2}).
    """
    weight = 1.0 / np.sqrt(prior @ kernel)
    solution, *_ = np.linalg.lstsq(kernel.T * weight[:, None], np.diag(weight), rcond=None)
    return solution.T


def _project_to_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto {p ≥ 0, Σp = 1} (sort and threshold; Held et al. 1974)."""
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - 1.0
    index = np.arange(1, len(v) + 1)
    rho = np.flatnonzero(u - cumulative / index > 0)[-1]
    return np.maximum(v - cumulative[rho] / (rho + 1), 0.0)


def _mle_slsqp(kernel: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """argmax_p Σ_y counts_y log (pK)_y over the simplex, by SLSQP with exact gradients."""
    pihat = counts / counts.sum()
    n_inputs = kernel.shape[0]

    def objective(p):
        return -pihat @ np.log(p @ kernel), -(kernel @ (pihat / (p @ kernel)))

    result = minimize(
        objective,
        np.full(n_inputs, 1.0 / n_inputs),
        jac=True,
        method="SLSQP",
        bounds=[(0.0, 1.0)] * n_inputs,
        constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1.0,
                      "jac": lambda p: np.ones_like(p)}],
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    assert result.success, result.message
    return np.clip(result.x, 0.0, None)


def _score(kernel: np.ndarray, counts: np.ndarray, p: np.ndarray) -> np.ndarray:
    """g_x = Σ_y π̂_y K[x,y]/(pK)_y: the MLE's KKT conditions are g_x = 1 where p_x > 0 and
    g_x ≤ 1 where p_x = 0 (the EM update is p_x ← p_x g_x)."""
    pihat = counts / counts.sum()
    return kernel @ (pihat / (p @ kernel))


def _z(level: float) -> float:
    return float(norm.ppf(0.5 + level / 2))


def _linear_intervals(matrix: np.ndarray, counts: np.ndarray, level: float) -> np.ndarray:
    """f ± z sd with var_x = (Σ π̂_y E_yx² − (Σ π̂_y E_yx)²)/n: the multinomial variance of
    π̂ @ E with π̂ plugged in."""
    n = counts.sum()
    pihat = counts / n
    estimate = pihat @ matrix
    sd = np.sqrt((pihat @ matrix**2 - estimate**2) / n)
    return np.column_stack([estimate - _z(level) * sd, estimate + _z(level) * sd])


def _asymptotic_intervals(
    kernel: np.ndarray, p: np.ndarray, n: int, level: float
) -> np.ndarray:
    """p ± z sd with cov = (J(p)^{-1} − p pᵀ)/n, J(p) = K diag(pK)^{-1} Kᵀ, clipped to [0, 1].

    (J(p)^{-1} − p pᵀ is the Cramér–Rao bound on the simplex: J p = K 1 = 1 there, so the
    constrained inverse J⁻¹ − J⁻¹11ᵀJ⁻¹/(1ᵀJ⁻¹1) reduces to it.)
    """
    information = kernel @ np.diag(1.0 / (p @ kernel)) @ kernel.T
    sd = np.sqrt((np.diag(np.linalg.inv(information)) - p**2) / n)
    half = _z(level) * sd
    return np.clip(np.column_stack([p - half, p + half]), 0.0, 1.0)


def _aggregate(kernel, counts, estimator="blue", **kwargs) -> md.Aggregator:
    return md.Aggregator(kernel, estimator=estimator, **kwargs).add(_reports(counts))


# -- streaming equals batch ----------------------------------------------------------------


def test_streaming_in_any_chunks_equals_one_batch():
    rng = np.random.default_rng(11)
    kernel = _random_kernel(rng, 3, 5)
    reports = rng.integers(0, 5, size=1000)
    expected_counts = np.bincount(reports, minlength=5)

    def chunkings():
        yield [reports]
        for _ in range(5):  # random cut points, repeats allowed, so some chunks are empty
            cuts = np.sort(rng.integers(0, len(reports) + 1, size=rng.integers(1, 40)))
            yield np.split(reports, cuts)
        yield [reports[i : i + 1] for i in range(len(reports))]
        # Other array-likes: Python lists of ints, tuples, narrow integer dtypes, empties.
        yield [[], reports[:300].tolist(), tuple(reports[300:301].tolist()),
               np.array([], dtype=np.int64), reports[301:700].astype(np.int8),
               reports[700:].astype(np.uint16), []]

    for estimator in ALL_ESTIMATORS:
        batch = md.Aggregator(kernel, estimator=estimator)
        assert batch.add(reports) is batch  # add returns the aggregator itself
        assert batch.n == len(reports)
        assert batch.counts.dtype == np.int64
        assert batch.counts.shape == (5,)
        assert np.array_equal(batch.counts, expected_counts)
        for chunks in chunkings():
            stream = md.Aggregator(kernel, estimator=estimator)
            for chunk in chunks:
                assert stream.add(chunk) is stream
            assert stream.n == len(reports)
            assert np.array_equal(stream.counts, batch.counts)
            # Exact equality of floats is justified: the aggregator holds only the counts,
            # and the counts are identical integers, so estimate() and the intervals are the
            # same deterministic function of the same input.
            assert np.array_equal(stream.estimate(), batch.estimate())
            assert np.array_equal(stream.confidence_intervals(), batch.confidence_intervals())


def test_counts_n_and_labels():
    kernel = _krr(3, 1.0)
    aggregator = md.Aggregator(kernel)
    assert aggregator.n == 0
    assert np.array_equal(aggregator.counts, np.zeros(3, dtype=np.int64))
    assert aggregator.labels is None
    aggregator.add([2, 2, 0]).add([]).add(np.array([1]))
    assert aggregator.n == 4
    assert isinstance(aggregator.n, int)
    assert aggregator.counts.tolist() == [1, 1, 2]
    labels = ["red", "green", "blue"]
    assert md.Aggregator(kernel, labels=labels).labels == labels


# -- the estimators against formulas -------------------------------------------------------


def test_blue_is_weighted_least_squares_at_the_prior():
    rng = np.random.default_rng(3)
    kernel = _random_kernel(rng, 3, 5)
    counts = rng.multinomial(2000, np.array([0.5, 0.3, 0.2]) @ kernel)
    pihat = counts / counts.sum()
    uniform = np.full(3, 1 / 3)
    prior = np.array([0.7, 0.2, 0.1])

    default = _aggregate(kernel, counts).estimate()
    assert default == pytest.approx(pihat @ _blue_matrix(kernel, uniform), rel=RTOL, abs=ATOL)
    assert default.sum() == pytest.approx(1.0, abs=1e-12)  # E 1 = 1 for the BLUE
    at_prior = _aggregate(kernel, counts, prior=prior).estimate()
    assert at_prior == pytest.approx(pihat @ _blue_matrix(kernel, prior), rel=RTOL, abs=ATOL)
    # The references are not all the same number: the prior and the weighting matter here.
    assert np.max(np.abs(at_prior - default)) > 1e-4
    assert np.max(np.abs(default - pihat @ np.linalg.pinv(kernel))) > 1e-4


def test_standard_is_pinv():
    rng = np.random.default_rng(4)
    kernel = _random_kernel(rng, 3, 5)
    counts = rng.multinomial(2000, np.array([0.2, 0.5, 0.3]) @ kernel)
    expected = counts / counts.sum() @ np.linalg.pinv(kernel)
    actual = _aggregate(kernel, counts, "standard").estimate()
    assert actual == pytest.approx(expected, rel=RTOL, abs=ATOL)


def test_standard_is_a_protocols_own_estimator():
    # Hadamard response in blocks: the standard estimator is its support counts (written
    # here from the protocol's definition: the sign of row t_v of H_b over v's block,
    # divided by 1 − ρ), not the least-squares inverse; a plain kernel gets K⁺.
    k, eps = 6, 3.0
    hr = md.hadamard_response(k, eps, blocks=4)  # b = 4: blocks {0, 1, 2}, {3, 4, 5}
    width, size = 4, 16
    rho = 2 * 4 / (2 * 4 - 1 + math.exp(eps))
    signs = np.zeros((size, k))
    for v in range(k):
        block, row = divmod(v, width - 1)
        signs[block * width:(block + 1) * width, v] = scipy.linalg.hadamard(width)[row + 1]
    counts = np.random.default_rng(5).multinomial(3000, np.full(k, 1 / k) @ hr.matrix)
    own = _aggregate(hr, counts, "standard").estimate()
    np.testing.assert_allclose(own, counts / counts.sum() @ signs / (1 - rho), rtol=1e-12)
    plain = _aggregate(hr.matrix, counts, "standard").estimate()
    np.testing.assert_allclose(plain, counts / counts.sum() @ np.linalg.pinv(hr.matrix),
                               rtol=1e-10, atol=1e-12)
    assert np.max(np.abs(own - plain)) > 1e-3


@pytest.mark.parametrize(
    "counts",
    [
        [400, 300, 300, 150],  # the standard estimate has a negative entry: projection bites
        [10, 10, 10, 900],  # three negative entries
        [300, 280, 250, 170],  # inside the simplex: the projection is the identity
    ],
)
def test_least_squares_is_the_projection_of_the_standard_estimate(counts):
    counts = np.array(counts)
    kernel = _krr(4, 1.0)
    standard = counts / counts.sum() @ np.linalg.pinv(kernel)
    actual = _aggregate(kernel, counts, "least_squares").estimate()
    assert actual == pytest.approx(_project_to_simplex(standard), rel=RTOL, abs=ATOL)
    assert np.all(actual >= 0)
    assert actual.sum() == pytest.approx(1.0, abs=1e-12)


def test_least_squares_projection_on_a_non_square_kernel():
    rng = np.random.default_rng(5)
    kernel = _random_kernel(rng, 4, 6)
    counts = rng.multinomial(300, np.array([0.6, 0.4, 0.0, 0.0]) @ kernel)
    standard = counts / counts.sum() @ np.linalg.pinv(kernel)
    assert standard.min() < 0  # the case under test: the projection is not the identity
    actual = _aggregate(kernel, counts, "least_squares").estimate()
    assert actual == pytest.approx(_project_to_simplex(standard), rel=RTOL, abs=ATOL)


def test_mle_interior_matches_slsqp_and_its_kkt_conditions():
    rng = np.random.default_rng(6)
    kernel = _random_kernel(rng, 3, 5)
    counts = rng.multinomial(3000, np.array([0.5, 0.3, 0.2]) @ kernel)
    reference = _mle_slsqp(kernel, counts)
    assert reference.min() > 0.05  # an interior optimum, where EM converges linearly
    for estimator in ("ibu", "mle"):
        estimate = _aggregate(kernel, counts, estimator).estimate()
        assert estimate == pytest.approx(reference, abs=MLE_ATOL)
        assert estimate.sum() == pytest.approx(1.0, abs=1e-9)
        assert _score(kernel, counts, estimate) == pytest.approx(np.ones(3), abs=MLE_ATOL)
    # "ibu" and "mle" name the same estimator.
    assert _aggregate(kernel, counts, "ibu").estimate() == pytest.approx(
        _aggregate(kernel, counts, "mle").estimate(), abs=1e-12
    )


def test_mle_on_the_boundary_matches_slsqp_and_its_kkt_conditions():
    kernel = _krr(4, 1.0)
    counts = np.array([400, 300, 300, 150])  # standard estimate has a negative last entry
    reference = _mle_slsqp(kernel, counts)
    assert reference[3] < 1e-9  # the case under test: the optimum is on the boundary
    estimate = _aggregate(kernel, counts, "mle").estimate()
    assert estimate == pytest.approx(reference, abs=MLE_ATOL)
    score = _score(kernel, counts, estimate)
    assert score[:3] == pytest.approx(np.ones(3), abs=MLE_ATOL)
    assert score[3] < 1  # the inactive input's KKT condition
    # Log-likelihood: EM's answer is as good as the optimiser's (up to its own tolerance).
    log_likelihood = counts @ np.log(estimate @ kernel) / counts.sum()
    assert log_likelihood >= counts @ np.log(reference @ kernel) / counts.sum() - 1e-10


@pytest.mark.parametrize(("k", "eps"), [(2, 0.5), (4, 1.0), (7, 2.0)])
def test_krr_linear_estimators_are_the_classic_closed_form(k, eps):
    rng = np.random.default_rng(k)
    kernel = _krr(k, eps)
    a, b = _krr_ab(k, eps)
    truth = rng.dirichlet(np.full(k, 3.0))
    counts = rng.multinomial(4000, truth @ kernel)
    pihat = counts / counts.sum()
    closed_form = (pihat - b) / (a - b)
    prior = rng.dirichlet(np.ones(k))
    for estimator, kwargs in [("blue", {}), ("blue", {"prior": prior}), ("standard", {})]:
        # For a square invertible K every unbiased linear estimator is K^{-1}, whatever prior.
        estimate = _aggregate(kernel, counts, estimator, **kwargs).estimate()
        assert estimate == pytest.approx(closed_form, rel=RTOL, abs=ATOL)
    if closed_form.min() > 0:  # inside the simplex: the projection and the MLE agree too
        for estimator, tolerance in [("least_squares", ATOL), ("ibu", MLE_ATOL)]:
            estimate = _aggregate(kernel, counts, estimator).estimate()
            assert estimate == pytest.approx(closed_form, abs=tolerance)


# -- confidence intervals: the formulas ----------------------------------------------------


@pytest.mark.parametrize("level", [0.95, 0.8, 0.99])
def test_linear_intervals_are_the_plug_in_multinomial_variance(level):
    rng = np.random.default_rng(8)
    kernel = _random_kernel(rng, 3, 5)
    counts = rng.multinomial(1500, np.array([0.6, 0.3, 0.1]) @ kernel)
    prior = np.array([0.2, 0.3, 0.5])
    cases = [
        ("blue", {}, _blue_matrix(kernel, np.full(3, 1 / 3))),
        ("blue", {"prior": prior}, _blue_matrix(kernel, prior)),
        ("standard", {}, np.linalg.pinv(kernel)),
    ]
    for estimator, kwargs, matrix in cases:
        aggregator = _aggregate(kernel, counts, estimator, **kwargs)
        intervals = aggregator.confidence_intervals(level)
        assert intervals.shape == (3, 2)
        expected = _linear_intervals(matrix, counts, level)
        assert intervals == pytest.approx(expected, rel=RTOL, abs=ATOL)
        if level == 0.95:  # exact: the parametrized input echoed back; 0.95 is the default
            # Same counts, same level: the same deterministic computation.
            assert np.array_equal(aggregator.confidence_intervals(), intervals)


@pytest.mark.parametrize("level", [0.95, 0.9])
@pytest.mark.parametrize("estimator", ["least_squares", "ibu", "mle"])
@pytest.mark.parametrize("boundary", [False, True])
def test_nonlinear_intervals_are_the_asymptotic_normal_interval(estimator, level, boundary):
    kernel = _krr(4, 1.0)
    if boundary:  # both estimates put 0 on the last input, and differ elsewhere
        counts = np.array([400, 300, 300, 150])
    else:  # 150 reports and a small last frequency: some lower ends are clipped at 0
        counts = np.random.default_rng(9).multinomial(
            150, np.array([0.5, 0.3, 0.15, 0.05]) @ kernel
        )
    aggregator = _aggregate(kernel, counts, estimator)
    estimate = aggregator.estimate()
    intervals = aggregator.confidence_intervals(level)
    assert intervals.shape == (4, 2)
    expected = _asymptotic_intervals(kernel, estimate, int(counts.sum()), level)
    assert intervals == pytest.approx(expected, rel=1e-7, abs=1e-9)
    assert np.all((intervals >= 0) & (intervals <= 1))
    assert np.all((intervals[:, 0] <= estimate) & (estimate <= intervals[:, 1]))
    if boundary:  # the covariance is taken at this estimator's estimate, not the MLE's
        other = "mle" if estimator == "least_squares" else "least_squares"
        other_estimate = _aggregate(kernel, counts, other).estimate()
        assert np.max(np.abs(other_estimate - estimate)) > 1e-3


# -- confidence intervals: coverage by simulation ------------------------------------------
#
# The model: each of n users draws an input i.i.d. from the true distribution p and reports
# through K, so the output counts are Multinomial(n, pK) and are drawn directly. The target
# of the interval is then p itself (the linear estimators are unbiased for p, and the plug-in
# variance is the variance of π̂ @ E under that multinomial). For a fixed population with
# histogram p the target would be the same p but the true variance smaller (no sampling of
# inputs), so these intervals would over-cover there.
#
# Tolerance: with T = 400 trials the empirical coverage of a 95% interval has binomial
# standard deviation √(0.95·0.05/400) ≈ 1.1 points, so the band 92%–98% is ±2.75 sd:
# a correctly calibrated interval falls outside it with probability ≈ 0.6% per input and
# estimator. The seeds are fixed (chosen once, not tuned), so the test is deterministic; at
# n = 5000 the normal approximation is good (each count is ≈ 5000·0.2 ≥ 800), so a failure
# means miscalibration (a wrong variance, z or centre), not bad luck.

TRIALS, USERS = 400, 5000


def _coverage(kernel, truth, estimator, seed) -> np.ndarray:
    rng = np.random.default_rng(seed)
    all_counts = rng.multinomial(USERS, truth @ kernel, size=TRIALS)
    covered = np.zeros((TRIALS, len(truth)), dtype=bool)
    for trial, counts in enumerate(all_counts):
        intervals = _aggregate(kernel, counts, estimator).confidence_intervals(0.95)
        covered[trial] = (intervals[:, 0] <= truth) & (truth <= intervals[:, 1])
    return covered.mean(axis=0)


@pytest.mark.parametrize(
    ("estimator", "truth", "seed"),
    [
        # Linear estimators are unbiased and unclipped: even a zero frequency is covered.
        ("blue", np.array([0.5, 0.3, 0.2, 0.0]), 2024),
        ("standard", np.array([0.5, 0.3, 0.2, 0.0]), 2025),
        ("blue", np.array([0.1, 0.2, 0.3, 0.4]), 2026),
        # The MLE's normal interval needs p away from the boundary (sd here ≈ 0.02 ≪ 0.1).
        ("ibu", np.array([0.4, 0.3, 0.2, 0.1]), 2027),
    ],
)
def test_95_percent_intervals_cover_within_three_points(estimator, truth, seed):
    coverage = _coverage(_krr(4, 1.0), truth, estimator, seed)
    assert np.all((coverage >= 0.92) & (coverage <= 0.98)), coverage


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [[-1], [4], [0, 1, 7], [1.5], np.array([0.5, 1.0]), ["a"]])
def test_reports_outside_the_alphabet_or_not_integers_raise(bad):
    aggregator = md.Aggregator(_krr(4, 1.0)).add([0, 1])
    with pytest.raises(md.InvalidInputError, match="reports"):
        aggregator.add(bad)
    # A rejected chunk leaves the aggregate untouched.
    assert aggregator.n == 2
    assert aggregator.counts.tolist() == [1, 1, 0, 0]


def test_unknown_estimator_raises():
    with pytest.raises(md.InvalidInputError, match="estimator"):
        md.Aggregator(_krr(3, 1.0), estimator="median")


@pytest.mark.parametrize("level", [0.0, 1.0, -0.5, 1.5, math.nan])
def test_level_outside_the_open_unit_interval_raises(level):
    aggregator = md.Aggregator(_krr(3, 1.0)).add([0, 1, 2, 2])
    with pytest.raises(md.InvalidInputError, match="level"):
        aggregator.confidence_intervals(level)


@pytest.mark.parametrize("estimator", ALL_ESTIMATORS)
def test_estimate_without_reports_raises(estimator):
    aggregator = md.Aggregator(_krr(3, 1.0), estimator=estimator)
    with pytest.raises(md.InvalidInputError):
        aggregator.estimate()
    aggregator.add([])  # an empty chunk is still no reports
    with pytest.raises(md.InvalidInputError):
        aggregator.estimate()


# -- the maximum-likelihood estimate: converged at every ε, with its certificate ----------


def _zipf_reports(k: int, eps: float, n: int, seed: int):
    prior = 1 / np.arange(1, k + 1) ** 1.1
    prior /= prior.sum()
    rng = np.random.default_rng(seed)
    K = md.randomized_response(k, eps)
    return K, K.sample(rng.choice(k, size=n, p=prior), rng)


@pytest.mark.parametrize("estimator", ["ibu", "mle"])
@pytest.mark.parametrize("seed", range(5))
def test_the_mle_converges_where_em_alone_did_not(estimator, seed):
    """GRR, k = 40, n = 10⁵, ε = 0.5: EM alone did not reach 1e-12 in 200,000 iterations
    in 5 of 5 seeds. The estimate is certified (gap ≤ tol) and no random point of the
    simplex has a larger likelihood than the estimate plus its gap."""
    K, reports = _zipf_reports(40, 0.5, 10**5, seed)
    aggregator = md.Aggregator(K, estimator=estimator).add(reports)
    p = aggregator.estimate()
    assert aggregator.likelihood_gap <= 1e-12
    q = aggregator.counts / aggregator.n
    best = float(q @ np.log(p @ K.matrix))
    rng = np.random.default_rng(seed)
    for point in rng.dirichlet(np.ones(40), size=200):
        assert float(q @ np.log(point @ K.matrix)) <= best + aggregator.likelihood_gap + 1e-12


@pytest.mark.parametrize(("k", "eps"), [(5, 0.05), (10, 0.5), (8, 4.0), (3, 20.0)])
def test_the_mle_is_the_optimum_an_independent_conic_solver_finds(k, eps):
    """cvxpy (Clarabel) maximises the same concave log-likelihood over the simplex: its
    optimum is not above ours by more than the certified gap and its own accuracy."""
    import cvxpy as cp

    K, reports = _zipf_reports(k, eps, 2000, 3)
    counts = np.bincount(reports, minlength=k)
    p, gap, _ = md.kernel.maximum_likelihood(K.matrix, counts / counts.sum())
    x = cp.Variable(k, nonneg=True)
    used = counts > 0
    problem = cp.Problem(cp.Maximize(counts[used] / counts.sum() @ cp.log(
        K.matrix[:, used].T @ x)), [cp.sum(x) == 1])
    problem.solve(solver=cp.CLARABEL)
    ours = float(counts[used] / counts.sum() @ np.log(p @ K.matrix[:, used]))
    assert problem.value <= ours + gap + 1e-7
    assert ours <= problem.value + 1e-7


def test_the_mle_options_are_checked_and_an_iteration_cap_is_named():
    K, reports = _zipf_reports(10, 0.5, 5000, 0)
    with pytest.raises(md.InvalidInputError, match="tol"):
        md.Aggregator(K, estimator="mle", tol=0.0)
    with pytest.raises(md.InvalidInputError, match="max_iter"):
        md.Aggregator(K, estimator="mle", max_iter=0)
    capped = md.Aggregator(K, estimator="mle", max_iter=1).add(reports)
    with pytest.raises(md.SolverError, match="likelihood gap"):
        capped.estimate()


# -- intervals for the users' histogram, and simultaneous ones -----------------------------


def _fixed_population_coverage(kernel, histogram, estimator, seed, **options) -> np.ndarray:
    """A fixed population (``USERS · histogram`` users at each input), only the reports
    random: for each trial the reports of each input group are drawn from its row."""
    rng = np.random.default_rng(seed)
    groups = np.rint(USERS * histogram).astype(int)
    truth = groups / groups.sum()
    covered = np.zeros((TRIALS, len(histogram)), dtype=bool)
    for trial in range(TRIALS):
        counts = sum(rng.multinomial(g, kernel[x]) for x, g in enumerate(groups))
        intervals = _aggregate(kernel, counts, estimator).confidence_intervals(0.95, **options)
        covered[trial] = (intervals[:, 0] <= truth) & (truth <= intervals[:, 1])
    return covered


@pytest.mark.parametrize(("estimator", "seed"), [("blue", 31), ("standard", 32), ("mle", 33)])
def test_histogram_intervals_cover_a_fixed_population(estimator, seed):
    """The users' histogram as the target: 95 % coverage within the simulation's band;
    the distribution's intervals, wider by the inputs' own variance, over-cover it."""
    kernel, histogram = _krr(4, 1.0), np.array([0.4, 0.3, 0.2, 0.1])
    coverage = _fixed_population_coverage(kernel, histogram, estimator, seed,
                                          target="histogram").mean(axis=0)
    assert np.all((coverage >= 0.92) & (coverage <= 0.98)), coverage
    wider = _fixed_population_coverage(kernel, histogram, estimator, seed).mean(axis=0)
    assert np.all(wider >= coverage)


def test_simultaneous_intervals_cover_every_input_at_once():
    kernel, histogram = _krr(4, 1.0), np.array([0.4, 0.3, 0.2, 0.1])
    every = _fixed_population_coverage(kernel, histogram, "blue", 34, target="histogram",
                                       simultaneous=True).all(axis=1).mean()
    assert every >= 0.95 - 3 * math.sqrt(0.95 * 0.05 / TRIALS)
    single = _fixed_population_coverage(kernel, histogram, "blue", 34, target="histogram")
    assert single.all(axis=1).mean() < every


def test_interval_options_are_checked():
    aggregator = md.Aggregator(_krr(3, 1.0)).add([0, 1, 2, 1])
    with pytest.raises(md.InvalidInputError, match="target"):
        aggregator.confidence_intervals(0.95, target="users")
    with pytest.raises(md.InvalidInputError, match="simultaneous"):
        aggregator.confidence_intervals(0.95, simultaneous="yes")
