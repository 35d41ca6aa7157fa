"""Reports: every quantity of one question, as a JSON-ready dict (nats).

The command line prints these; notebooks and scripts can call them directly. The
robust-LDP mechanisms :func:`rldp_report` designs come from their registry,
:mod:`mechdesign.mechanisms.robust`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mechdesign._tolerances import (
    AUDIT_ATOL,
)
from mechdesign.accounting.composition import attack_risk
from mechdesign.bounds.contraction import (
    asoodeh_zhang_kl_contraction,
    decomposable_threshold,
    gamma_bound,
    kairouz_dobrushin_bound,
    max_dobrushin,
    max_zeros_per_column,
    pml_hellinger_sdpi_bound,
    pml_kl_sdpi_bound,
    pml_sdpi_bound,
)
from mechdesign.bounds.envelope import (
    binary_envelope,
    envelope_lower_bound,
    envelope_upper_bound,
    leakage_distribution,
    pml_envelope,
    pml_lower_quantile,
    pml_upper_quantile,
)
from mechdesign.kernel import Mechanism
from mechdesign.measures.channel_orders import is_degraded
from mechdesign.measures.channels import (
    channel_capacity,
    maximal_alpha_leakage,
    sibson_mutual_information,
)
from mechdesign.measures.divergences import CHI_SQUARED
from mechdesign.measures.leakage import (
    dobrushin_coefficient,
    ldp_level,
    maximal_leakage,
    mutual_information,
    pml_capacity,
    pml_level,
    pointwise_leakage,
    renyi_ldp_level,
)
from mechdesign.measures.profile import dp_epsilon
from mechdesign.mechanisms.closed_forms import (
    randomized_response,
    secret_randomized_response,
)
from mechdesign.mechanisms.robust import robust_ldp_mechanism
from mechdesign.notions import PML, dobrushin_bound
from mechdesign.notions.datasets import CategoricalPair
from mechdesign.notions.robust_levels import robust_ldp_level

__all__ = [
    "BOUND_RTOL",
    "RLDP_MAX_VERTICES",
    "bounds_report",
    "envelope_report",
    "measure_report",
    "rldp_report",
]

#: Relative slack when checking η_TV(K) ≤ Ξ(C(K, Q(c)), c) in a report.
BOUND_RTOL = 1e-9

#: Default cap on PolyOpt's vertex count in the CLI: the McMullen bound is loose for Γ_ε
#: (it allows 4·10⁶ vertices for Adult's race × sex, which has about 10⁴ and takes 2 s).
RLDP_MAX_VERTICES = 10**12


def rldp_report(
    pair: CategoricalPair,
    epsilon: float,
    *,
    beta: float = 0.05,
    mechanism: str = "PolyOpt",
    max_vertices: int = RLDP_MAX_VERTICES,
    **design_options: Any,
) -> dict[str, Any]:
    """Design a robust-LDP mechanism for the data of ``pair`` and audit it exactly.

    Parameters
    ----------
    pair : CategoricalPair
        The data: a sensitive and a non-sensitive column, whose empirical distribution is
        ``P̂`` (:func:`~mechdesign.notions.datasets.categorical_pair`).
    epsilon : float
        The privacy level ε ≥ 0, nats.
    beta : float
        Significance of the χ² confidence ball around ``P̂`` (``pair.ball(beta)``).
    mechanism : str
        A name of :data:`~mechdesign.mechanisms.robust.ROBUST_LDP_MECHANISMS` (any case;
        default PolyOpt, the default variant).
    max_vertices : int
        The largest vertex count PolyOpt and NR enumerate (default
        :data:`RLDP_MAX_VERTICES`).
    **design_options
        ``method``, ``time_limit``, ``gap``: passed to :func:`~mechdesign.optimal.design`
        for PolyOpt and NR.

    Returns
    -------
    dict
        The data summary, the mechanism, its utility ``I_P̂(X; Y)`` and NMI (divided by
        ``H_P̂(X)``), the utilities of GRR and SRR at the same ε, the exact robust level
        over the ball with its projection bound, and ``method``: ``"closed_form"`` for
        GRR, SRR and IR, else the design's ``"enumeration"`` or ``"column_generation"``
        (with what the construction reports:
        :class:`~mechdesign.mechanisms.robust.RobustMechanism`'s ``details``).
    """
    ball = pair.ball(beta)
    shape = pair.shape
    p_hat = pair.p_hat
    entropy = float(-np.sum(p_hat[p_hat > 0] * np.log(p_hat[p_hat > 0])))
    built = robust_ldp_mechanism(mechanism, epsilon, ball, shape, max_vertices=max_vertices,
                                 **design_options)
    kernel = built.mechanism
    level = robust_ldp_level(kernel, ball, shape)
    utility = mutual_information(kernel, p_hat)
    comparators = {
        "grr": mutual_information(randomized_response(p_hat.size, epsilon), p_hat),
        "srr": mutual_information(secret_randomized_response(shape, epsilon), p_hat),
    }
    return {
        "sensitive": pair.sensitive,
        "other": pair.other,
        "shape": list(shape),
        "s_labels": list(pair.s_labels),
        "u_labels": list(pair.u_labels),
        "n_samples": pair.n_samples,
        "beta": beta,
        "radius": ball.radius,
        "epsilon": epsilon,
        "mechanism_name": built.name,
        "mechanism": kernel.matrix.tolist(),
        "utility": utility,
        "nmi": utility / entropy if entropy > 0 else math.nan,
        "comparator_utilities": comparators,
        "robust_level": float(level),
        "projection_bound": level.projection_bound,
        "worst_case": {"output": level.output, "secrets": level.secrets},
        "audit_exact": level.exact,
        "audit_passed": float(level) <= epsilon + AUDIT_ATOL,
        "method": "closed_form",  # GRR, SRR and IR; a design's details say what ran
        **built.details,
    }



def measure_report(
    kernel: Mechanism,
    prior: np.ndarray,
    *,
    c_values: Sequence[float] = (),
    alpha: float = 2.0,
) -> dict[str, Any]:
    """Every foundation measure of ``kernel``, as a JSON-ready dict (nats).

    For each ``c`` the report holds the (ε,c)-PML level ``ε_c = C(K, Q_X(c))`` and the
    check of Theorem 1 of [1]_, ``η_TV(K) ≤ Ξ(ε_c, c)``. Beside them: the Shannon
    capacity with its certified bracket and prior, Sibson's α-mutual information at the
    prior and maximal α-leakage at ``alpha`` (``None`` for α < 1, where maximal α-leakage
    is not defined), the best attack's risk from one use, and whether the kernel is a
    post-processing of randomized response at its own LDP level.

    Parameters
    ----------
    kernel : Mechanism
        The kernel, shape (N, M), rows are inputs.
    prior : numpy.ndarray, shape=(N,)
        The input distribution of the prior-dependent measures.
    c_values : sequence of float
        The values of c (each in (0, 1/N]) at which to report the (ε,c)-PML level.
    alpha : float
        The order of the Rényi-LDP level, Sibson's mutual information and maximal
        α-leakage.

    Returns
    -------
    dict
        One key per measure (nats, or probabilities for the attack's risk).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients
       of Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    n = kernel.n_inputs
    eta = dobrushin_coefficient(kernel)
    capacity = channel_capacity(kernel)
    capacities = []
    for c in c_values:
        eps_c = pml_capacity(kernel, c)
        bound = dobrushin_bound(eps_c, c, n)
        capacities.append(
            {
                "c": c,
                "pml_capacity": eps_c,
                "dobrushin_bound": bound,
                "dobrushin_within_bound": bool(eta <= bound * (1 + BOUND_RTOL)),
            }
        )
    return {
        "n_inputs": n,
        "n_outputs": kernel.n_outputs,
        "prior": prior.tolist(),
        "ldp_level": ldp_level(kernel),
        "maximal_leakage": maximal_leakage(kernel),
        "dobrushin_coefficient": eta,
        "renyi_ldp_level": {"alpha": alpha, "value": renyi_ldp_level(kernel, alpha)},
        "mutual_information": mutual_information(kernel, prior),
        "channel_capacity": {"value": capacity.value, "lower": capacity.lower,
                             "upper": capacity.upper, "prior": capacity.prior.tolist()},
        "sibson_mutual_information": {
            "alpha": alpha, "value": sibson_mutual_information(kernel, prior, alpha)},
        "maximal_alpha_leakage": {
            "alpha": alpha,
            "value": maximal_alpha_leakage(kernel, alpha) if alpha >= 1 else None},
        "attack_risk": _attack_report(kernel),
        "post_processing_of_randomized_response": _below_randomized_response(kernel),
        "pml_level": pml_level(kernel, prior),
        "pointwise_leakage": pointwise_leakage(kernel, prior).tolist(),
        "pml_capacity": capacities,
    }




#: The false-positive rate at which the audit reports the best attack's power.
AUDIT_FALSE_POSITIVE_RATE = 0.01


#: Above this many inputs the audit report leaves out its pairwise measures (the trade-off
#: envelope over all N² row pairs and the Blackwell LP with N·M unknowns): at N = 128 they
#: take some 25 s, at N = 256 minutes; the advantage and the Bayes risk stay (a max of
#: total variations).
AUDIT_PAIRWISE_MAX_INPUTS = 64


def _below_randomized_response(kernel: Mechanism) -> bool | None:
    """Whether ``K`` is a post-processing of N-ary randomized response at ``K``'s own LDP
    level (Blackwell: then k-RR is at least as useful for every task at the same ε;
    always so for two inputs, Kairouz, Oh & Viswanath, JMLR 2016); ``None`` for one input,
    an infinite level, or more than :data:`AUDIT_PAIRWISE_MAX_INPUTS` inputs."""
    level = ldp_level(kernel)
    if not 2 <= kernel.n_inputs <= AUDIT_PAIRWISE_MAX_INPUTS or not math.isfinite(level):
        return None
    return is_degraded(randomized_response(kernel.n_inputs, level), kernel) is not None


def _attack_report(kernel: Mechanism) -> dict[str, float | None] | None:
    """One use's operational risk (:func:`~mechdesign.accounting.composition.attack_risk`): the best
    attack's advantage (the largest total variation between two rows), the Bayes risk at
    an even prior (``(1 − advantage)/2``), and its true-positive rate at
    :data:`AUDIT_FALSE_POSITIVE_RATE` (``None`` above :data:`AUDIT_PAIRWISE_MAX_INPUTS`
    inputs); ``None`` for a one-input kernel (nothing to tell apart)."""
    n = kernel.n_inputs
    if n < 2:
        return None
    if n > AUDIT_PAIRWISE_MAX_INPUTS:
        k = kernel.matrix
        advantage = max(float(0.5 * np.abs(k[x] - k[x + 1:]).sum(axis=1).max())
                        for x in range(n - 1))
        return {"advantage": advantage, "false_positive_rate": AUDIT_FALSE_POSITIVE_RATE,
                "true_positive_rate": None, "bayes_risk_even_prior": (1 - advantage) / 2}
    risk = attack_risk(kernel)
    return {"advantage": risk.advantage,
            "false_positive_rate": AUDIT_FALSE_POSITIVE_RATE,
            "true_positive_rate": risk.true_positive_rate(AUDIT_FALSE_POSITIVE_RATE),
            "bayes_risk_even_prior": risk.bayes_risk(0.5)}


def bounds_report(epsilon: float, c: float, n: int, tv: float = 1.0) -> dict[str, Any]:
    """Every contraction quantity of [1]_ for (ε, c)-PML on ``n`` inputs.

    Ξ(ε, c) of Theorem 1 beside the LP value of Lemma 3 and its extremal kernel, Theorem
    2's threshold, Lemma 1's zero count, Proposition 2's Γ bounds, the SDPI constants of
    Corollaries 1–2 and the LDP comparators.

    Parameters
    ----------
    epsilon : float
        The privacy level ε ≥ 0, nats.
    c : float
        The PML parameter, 0 < c ≤ 1/n.
    n : int
        Number of inputs N.
    tv : float
        The total variation TV(P, Q) at which the SDPI bounds are evaluated.

    Returns
    -------
    dict
        One key per quantity (nats where a quantity is a divergence).

    References
    ----------
    .. [1] L. Grosse, S. Saeidian, T. J. Oechtering, M. Skoglund, "Dobrushin Coefficients
       of Private Mechanisms Beyond Local Differential Privacy", 2026, arXiv:2601.09498.
    """
    lp = max_dobrushin(PML(epsilon, c=c), n)
    gamma_max, gamma_min = gamma_bound(epsilon, c, n)
    return {
        "epsilon": float(epsilon),
        "c": float(c),
        "n": int(n),
        "tv": float(tv),
        "dobrushin_bound": dobrushin_bound(epsilon, c, n),
        "dobrushin_lp": float(lp),
        "extremal_kernel": lp.kernel.matrix.tolist(),
        "decomposable_threshold": decomposable_threshold(c, n),
        "max_zeros_per_column": max_zeros_per_column(epsilon, c, n),
        "gamma_max_bound": gamma_max,
        "gamma_min_bound": gamma_min,
        "kl_sdpi": pml_kl_sdpi_bound(epsilon, c, n, tv),
        "hellinger_sdpi": pml_hellinger_sdpi_bound(epsilon, c, n, tv),
        "chi_squared_sdpi": pml_sdpi_bound(epsilon, c, n, tv, CHI_SQUARED),
        "ldp_dobrushin_kairouz": kairouz_dobrushin_bound(epsilon),
        "ldp_kl_contraction_asoodeh_zhang": asoodeh_zhang_kl_contraction(epsilon),
    }



def envelope_report(kernel: Mechanism, prior: np.ndarray, deltas: Sequence[float]) -> dict:
    """Every quantity of [1]_ for one kernel and prior, at each δ.

    The leakage distribution, the quantiles of eqs. (9)–(10), the binary envelope
    (Algorithm 1), the lower bound of eq. (14), the exact envelope with the
    post-processing that attains it, Theorem 3's upper bounds and the kernel's (ε, δ)-DP ε.

    Parameters
    ----------
    kernel : Mechanism
        The kernel, shape (N, M), rows are inputs.
    prior : numpy.ndarray, shape=(N,)
        The input distribution.
    deltas : sequence of float
        The failure probabilities δ, each in (0, 1).

    Returns
    -------
    dict
        The kernel's leakage distribution and one entry of ``deltas`` per δ (nats).

    References
    ----------
    .. [1] S. Saeidian, C. Pinzón, C. Palamidessi, "Information Leakage Envelopes", 2026,
       arXiv:2605.21185.
    """
    dist = leakage_distribution(kernel, prior)
    support = prior > 0
    maximal = float(np.log(kernel.matrix[support].max(axis=0).sum()))
    rows = []
    for delta in deltas:
        exact = pml_envelope(kernel, prior, delta)
        rows.append(
            {
                "delta": float(delta),
                "lower_quantile": pml_lower_quantile(kernel, prior, delta),
                "upper_quantile": pml_upper_quantile(kernel, prior, delta),
                "binary_envelope": binary_envelope(kernel, prior, delta),
                "lower_bound_eq14": envelope_lower_bound(kernel, prior, delta),
                "envelope": float(exact),
                "envelope_bracket_upper": exact.upper,
                "witness_post_processing": exact.post_processing.tolist(),
                "witness_bad_set": list(exact.bad_set),
                "upper_bound_maximal_leakage": maximal - math.log(delta),
                "upper_bound_theorem3": envelope_upper_bound(kernel, prior, delta),
                "dp_epsilon": dp_epsilon(kernel, delta),
            }
        )
    return {
        "n_inputs": kernel.n_inputs,
        "n_outputs": kernel.n_outputs,
        "prior": prior.tolist(),
        "leakage_values": dist.values.tolist(),
        "leakage_probabilities": dist.probabilities.tolist(),
        "pml_level": float(dist.values[-1]),
        "maximal_leakage": maximal,
        "deltas": rows,
    }

