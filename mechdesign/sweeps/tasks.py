"""The built-in sweep tasks: :func:`design_task` (the optimum under a notion),
:func:`measure_task` (a mechanism family's measures) and :func:`envelope_task` (its PML
envelope), each a function of plain keyword arguments returning a flat record, on the
priors of :func:`mechdesign.priors.make_prior`.
"""

from __future__ import annotations

import numpy as np

from mechdesign._tolerances import COLUMN_GENERATION_GAP
from mechdesign._validation import (
    as_distribution,
    check_c,
    check_choice,
    check_epsilon,
    check_int,
    check_size,
    show,
)
from mechdesign.bounds.envelope import pml_envelope
from mechdesign.comparison import deployed_protocols
from mechdesign.errors import InvalidInputError
from mechdesign.measures.leakage import (
    bayes_vulnerability,
    ldp_level,
    mutual_information,
    pml_level,
)
from mechdesign.mechanisms.closed_forms import pml_extremal_mechanism
from mechdesign.mechanisms.protocols import estimation_mse
from mechdesign.notions import LDP, PML
from mechdesign.optimal import design
from mechdesign.priors import PRIORS, make_prior
from mechdesign.sweeps.points import Record

__all__ = [
    "FAMILIES",
    "PRIORS",
    "TASK_MAX_N",
    "design_task",
    "envelope_task",
    "family_name",
    "make_prior",
    "measure_task",
]

#: The largest ``n`` of the built-in tasks (their priors and kernels are dense).
TASK_MAX_N = 2**16


def _check_task_n(n: int, low: int = 2) -> int:
    return check_size(n, "n", TASK_MAX_N, low=low,
                      why="a task's prior and mechanism are dense arrays of this size")


def _notion(notion: str, epsilon: float, n: int, c: float | None, prior: np.ndarray):
    epsilon = check_epsilon(epsilon)
    check_choice(notion, "notion", ("ldp", "pml", "pml-prior"))
    if c is not None and notion != "pml":
        raise InvalidInputError(f"c applies to notion='pml' only; got c = {show(c)} with "
                                f"notion={show(notion)}.")
    if notion == "ldp":
        return LDP(epsilon)
    if notion == "pml":
        return PML(epsilon, check_c(c, n) if c is not None else 1.0 / (2 * n))
    return PML(epsilon, prior=as_distribution(prior, "prior", n))


def design_task(
    notion: str,
    epsilon: float,
    n: int,
    prior: str = "uniform",
    rep: int = 0,
    c: float | None = None,
    objective: str = "mutual_information",
    method: str = "auto",
    gap: float = COLUMN_GENERATION_GAP,
    time_limit: float | None = None,
) -> Record:
    """Design the optimum under a notion at one grid point
    (:func:`mechdesign.optimal.design`).

    Parameters
    ----------
    notion : str
        ``"ldp"`` (ε-LDP), ``"pml"`` ((ε, c)-PML) or ``"pml-prior"`` (ε-PML for the
        prior itself).
    epsilon : float
        The privacy level ε ≥ 0, nats.
    n : int
        Number of inputs, 2 ≤ n ≤ :data:`TASK_MAX_N`.
    prior : str
        The prior's name, one of :data:`~mechdesign.priors.PRIORS`
        (:func:`~mechdesign.priors.make_prior`).
    rep : int
        The repetition (≥ 0): which Dirichlet draw, for ``prior="dirichlet"``.
    c : float or None
        The c of ``notion="pml"`` (0 < c ≤ 1/n; None: ``1/(2n)``); only with that notion.
    objective : str
        The ``utility`` of :func:`~mechdesign.optimal.design`, ``"mutual_information"``
        or ``"bayes"`` (named so that the record's ``utility`` column is the value
        reached).
    method : str
        The design method (``"auto"``, ``"enumeration"`` or ``"column_generation"``).
    gap : float
        Column generation's relative stopping gap.
    time_limit : float or None
        Seconds after which column generation stops with its bracket (None: no limit).

    Returns
    -------
    dict
        The record ``utility``, ``privacy_level`` (the independent audit),
        ``audit_passed``, ``method``, ``status``, ``gap`` (upper − lower bound; 0 for a
        certified LP over every vertex), ``outputs``, ``design_seconds``.
    """
    n = _check_task_n(n)
    check_choice(objective, "objective", ("mutual_information", "bayes"))
    p = make_prior(prior, n, rep)
    result = design(_notion(notion, epsilon, n, c, p), p, utility=objective, method=method,
                    gap=gap, time_limit=time_limit, progress=False)
    summary = result.summary()
    return {
        "utility": float(result.utility),
        "privacy_level": float(result.privacy_level),
        "audit_passed": bool(result.audit_passed),
        "method": str(result.method),
        "status": str(result.status),
        "gap": float(summary.get("gap", 0.0)),
        "outputs": int(result.mechanism.n_outputs),
        "design_seconds": float(summary["seconds"]["total"]),
    }


#: The mechanism families :func:`measure_task` and :func:`envelope_task` build, by their
#: canonical names: the deployed protocols of :func:`mechdesign.compare` (GRR, OUE, SUE,
#: subset selection, OLH, Hadamard response, built exactly as ``compare`` builds them) and
#: the PML-extremal mechanism for the prior.
FAMILIES = ("grr", "oue", "sue", "subset_selection", "olh", "hadamard_response",
            "pml_extremal")

#: ``compare``'s name (:func:`mechdesign.comparison.deployed_protocols`) of each family.
_COMPARE_NAMES = {"grr": "GRR", "oue": "OUE", "sue": "SUE (RAPPOR)",
                  "subset_selection": "subset selection", "olh": "OLH",
                  "hadamard_response": "Hadamard response"}


def family_name(mechanism: object, name: str = "mechanism") -> str:
    """The canonical name (one of :data:`FAMILIES`) of a mechanism family.

    Parameters
    ----------
    mechanism : str
        A name of :data:`FAMILIES`, ``compare``'s name of the same protocol (``"GRR"``,
        ``"SUE (RAPPOR)"``, ``"subset selection"``, ``"Hadamard response"``), or either
        with any case and with spaces or hyphens for underscores
        (``"subset-selection"``); ``"rappor"`` is SUE.
    name : str
        The argument's name in the error message (the command line passes
        ``"--mechanism"``).

    Returns
    -------
    str
        The canonical name.

    Raises
    ------
    mechdesign.errors.InvalidInputError
        For anything else, naming ``name`` and the valid names.
    """
    if isinstance(mechanism, str):
        key = mechanism.lower().replace(" ", "_").replace("-", "_")
        key = {"sue_(rappor)": "sue", "rappor": "sue"}.get(key, key)
        if key in FAMILIES:
            return key
    raise InvalidInputError(
        f"{name} must be one of {', '.join(FAMILIES)} (any case; compare's names such as "
        f"'subset selection' too); got {show(mechanism)}."
    )


def _family(mechanism: str, epsilon: float, n: int, prior: np.ndarray):
    key = family_name(mechanism)
    if key == "pml_extremal":
        return pml_extremal_mechanism(epsilon, prior)
    return deployed_protocols(n, epsilon)[_COMPARE_NAMES[key]]()


def measure_task(mechanism: str, epsilon: float, n: int, prior: str = "uniform",
                 rep: int = 0, samples: int = 1000) -> Record:
    """Measure a mechanism family at one grid point.

    Parameters
    ----------
    mechanism : str
        One of :data:`FAMILIES` or another spelling :func:`family_name` accepts
        (``compare``'s names); anything else raises
        :class:`~mechdesign.errors.InvalidInputError` naming ``mechanism`` and the valid
        names.
    epsilon : float
        The family's ε ≥ 0, nats.
    n : int
        Number of inputs, 2 ≤ n ≤ :data:`TASK_MAX_N`.
    prior : str
        The prior's name, one of :data:`~mechdesign.priors.PRIORS`.
    rep : int
        The repetition (≥ 0): which Dirichlet draw, for ``prior="dirichlet"``.
    samples : int
        The number of reports of the ``mse`` column (≥ 1).

    Returns
    -------
    dict
        The record ``mutual_information`` (nats), ``bayes_vulnerability``, ``ldp_level``,
        ``pml_level`` (for the prior), ``mse`` (the expected squared ℓ2 error of the
        frequency estimate from ``samples`` reports, :func:`mechdesign.estimation_mse`)
        and ``outputs``.
    """
    n = _check_task_n(n)
    samples = check_int(samples, "samples", low=1)
    p = make_prior(prior, n, rep)
    k = _family(mechanism, check_epsilon(epsilon), n, p)
    return {
        "mutual_information": float(mutual_information(k, p)),
        "bayes_vulnerability": float(bayes_vulnerability(k, p)),
        "ldp_level": float(ldp_level(k)),
        "pml_level": float(pml_level(k, p)),
        "mse": float(estimation_mse(k, p, samples)),
        "outputs": int(k.n_outputs),
    }


def envelope_task(mechanism: str, epsilon: float, n: int, delta: float,
                  prior: str = "uniform", rep: int = 0) -> Record:
    """The PML envelope ε_c(δ) of a mechanism family at one δ
    (:func:`mechdesign.pml_envelope`).

    Parameters
    ----------
    mechanism : str
        The family, as for :func:`measure_task`.
    epsilon : float
        The family's ε ≥ 0, nats.
    n : int
        Number of inputs, 2 ≤ n ≤ :data:`TASK_MAX_N`.
    delta : float
        The failure probability δ ∈ (0, 1).
    prior : str
        The prior's name, one of :data:`~mechdesign.priors.PRIORS`.
    rep : int
        The repetition (≥ 0): which Dirichlet draw, for ``prior="dirichlet"``.

    Returns
    -------
    dict
        The record ``envelope`` (the certified value, nats), ``upper`` (the upper end of
        its bracket) and ``bad_mass``.
    """
    n = _check_task_n(n)
    p = make_prior(prior, n, rep)
    envelope = pml_envelope(_family(mechanism, check_epsilon(epsilon), n, p), p, delta)
    return {"envelope": float(envelope), "upper": float(envelope.upper),
            "bad_mass": float(envelope.bad_mass)}
