"""The designed optimum beside the deployed protocols, on one instance, as a table.

:func:`compare` answers the question a user of an LDP frequency oracle asks: at this ε
and this prior, how far is each protocol people deploy from the mechanism designed for
what I measure? One row per mechanism, one column per measure (pandas, tidy).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from mechdesign._tolerances import STOCHASTIC_ATOL
from mechdesign._validation import (
    as_distribution,
    as_real,
    check_epsilon,
    check_positive_int,
    check_real,
    show,
)
from mechdesign.accounting.shuffle import local_epsilon_for, shuffle_epsilon
from mechdesign.accounting.shuffle_design import Shuffled
from mechdesign.errors import InvalidInputError, TooLargeError, UnsupportedError
from mechdesign.kernel import Mechanism, as_matrix
from mechdesign.measures.estimation import workload_matrix
from mechdesign.measures.leakage import bayes_vulnerability, ldp_level, mutual_information
from mechdesign.mechanisms.oracles import PureOracle, implicit_protocols, local_hashing
from mechdesign.mechanisms.protocols import (
    PROTOCOL_MAX_OUTPUTS,
    FrequencyOracle,
    estimation_mse,
    generalized_randomized_response,
    hadamard_response,
    hash_family,
    subset_selection,
    unary_encoding,
)
from mechdesign.notions import LDP, Notion, check_notion
from mechdesign.optimal import EstimationError, Utility, design
from mechdesign.optimal.pipeline import UTILITIES
from mechdesign.priors import zipf_prior

__all__ = [
    "COMPARE_COLUMNS",
    "COMPARE_DENSE_MAX_ENTRIES",
    "COMPARE_TIME_LIMIT",
    "SHUFFLE_MAX_LOCAL_EPSILON",
    "compare",
    "deployed_protocols",
    "zipf_prior",
]

#: The columns of :func:`compare`'s table, in order.
COMPARE_COLUMNS = (
    "mechanism", "kind", "outputs", "mutual_information", "bayes_vulnerability", "mse",
    "mse_blue", "ldp_level", "privacy_level", "note",
)

#: :func:`compare` with ``shuffle`` searches local ε₀ up to this (nats): at central ε = 1,
#: δ = 1e-6, GRR affords 10.06 at 10⁶ users and 12.37 at 10⁷, above the 10 it was.
SHUFFLE_MAX_LOCAL_EPSILON = 20.0

#: compare's seconds per designed row by default: an estimation design at k = 40 then
#: returns within a minute at any ε, with its certified bracket in the row's note.
COMPARE_TIME_LIMIT = 45.0

#: :func:`compare` builds a protocol's dense kernel up to this many entries (k × outputs:
#: 2²⁴ doubles, 128 MB); a larger one is its implicit oracle's row.
COMPARE_DENSE_MAX_ENTRIES = 2**24

def deployed_protocols(k: int, epsilon: float) -> dict[str, Callable[[], FrequencyOracle]]:
    """The standard ε-LDP frequency oracles on ``k`` inputs, by name, each as a function
    that builds its dense kernel (and may raise :class:`~mechdesign.errors.TooLargeError`;
    :func:`~mechdesign.mechanisms.oracles.implicit_protocols` has the same protocols at any size):
    GRR, OUE, SUE (basic RAPPOR), subset selection with the optimal size, OLH with
    ``g = round(e^ε) + 1`` buckets and a fresh hash per user (the exactly universal
    family of :func:`~mechdesign.mechanisms.protocols.hash_family`), Hadamard response.

    Parameters
    ----------
    k : int
        Inputs (categories) of every protocol.
    epsilon : float
        The LDP level ε (nats) of every protocol; each builder validates it when called.

    Returns
    -------
    dict of str to callable
        ``name ↦`` a function of no arguments returning the protocol's
        :class:`~mechdesign.mechanisms.protocols.FrequencyOracle`; nothing is built until
        it is called.
    """

    def olh() -> FrequencyOracle:
        eps = check_epsilon(epsilon)  # as the other builders: InvalidInputError first
        if eps > math.log(PROTOCOL_MAX_OUTPUTS):
            raise TooLargeError(
                f"OLH at epsilon = {show(epsilon)} has round(e^epsilon) + 1 buckets, above "
                f"PROTOCOL_MAX_OUTPUTS = {PROTOCOL_MAX_OUTPUTS:,}."
            )
        g = round(math.exp(eps)) + 1
        # the universal family: a user drawing a uniform member of it is OLH with a
        # fresh hash per user (unbiased); past the output cap, PureOracle.hashing
        return local_hashing(k, epsilon, hash_family(k, g), buckets=g)

    return {
        "GRR": lambda: generalized_randomized_response(k, epsilon),
        "OUE": lambda: unary_encoding(k, epsilon),
        "SUE (RAPPOR)": lambda: unary_encoding(k, epsilon, optimized=False),
        "subset selection": lambda: subset_selection(k, epsilon),
        "OLH": olh,
        "Hadamard response": lambda: hadamard_response(k, epsilon),
    }


def compare(
    notion: Notion,
    prior: ArrayLike,
    *,
    mechanisms: Mapping[str, Mechanism | ArrayLike] | None = None,
    utilities: Sequence[object] = ("mutual_information", "bayes"),
    n: int = 1000,
    workload: str | ArrayLike | None = None,
    shuffle: tuple[int, float] | None = None,
    time_limit: float | None = COMPARE_TIME_LIMIT,
) -> pd.DataFrame:
    """The designed optimum for each utility beside the deployed LDP protocols.

    Rows: for every utility, the mechanism :func:`~mechdesign.optimal.design` returns for
    ``notion`` and ``prior`` (``kind = "designed"``); then every mechanism of
    ``mechanisms`` (``kind = "given"``), or by default every protocol of
    :func:`deployed_protocols` at ``ε = notion.epsilon`` (``kind = "protocol"``). An
    ε-LDP protocol satisfies every notion the library designs for at the same ε (its
    PML level is at most its LDP level), so the comparison is fair for PML too; the
    column ``privacy_level`` is the notion's own audit (``notion.level``).

    Columns (:data:`COMPARE_COLUMNS`): ``mechanism``, ``kind``, ``outputs``,
    ``mutual_information`` (nats), ``bayes_vulnerability`` (the MAP adversary's success
    probability), ``mse`` (:func:`~mechdesign.mechanisms.protocols.estimation_mse` from ``n``
    reports: a protocol's standard estimator, otherwise least squares, ``inf`` when no
    unbiased linear estimator exists), ``mse_blue`` (the same with the best linear
    unbiased estimator at ``prior``, :func:`~mechdesign.measures.estimation.blue_estimator`; never
    above ``mse``), ``ldp_level``, ``privacy_level`` and ``note``. Both errors are of the
    ``workload``'s answers against the users' histogram. A
    protocol too large to build (unary encoding above k = 16, say) is a row whose
    measures are missing (NaN) and whose note says why; so is one whose kernel cannot be
    represented in double precision (unary encoding at ε = 700).

    Parameters
    ----------
    notion : Notion
        LDP or PML with ``0 < ε < ∞``.
    prior : array_like, shape (k,)
        The prior of the input (a probability vector): the designs' prior, and the
        distribution every measure is taken under.
    mechanisms : mapping of str to Mechanism or array_like, optional
        ``name ↦`` kernel of shape (k, M) (rows are inputs, any number M of outputs), to
        compare instead of the deployed protocols; each must have ``k`` inputs.
    utilities : sequence of "mutual_information", "bayes", "mse", Utility or EstimationError
        One designed row each; empty for none. ``"mse"`` is the estimation-optimal design
        for ``workload`` (:class:`~mechdesign.optimal.estimation.EstimationError`; by
        enumeration, seconds up to k = 12).
    n : int, default 1000
        Reports for the estimation error (``n ≥ 1``).
    workload : {None, "histogram", "prefix", "all-range"} or array_like, shape=(L, k)
        The queries of the two error columns
        (:func:`~mechdesign.measures.estimation.workload_matrix`);
        ``None`` is the histogram.
    shuffle : (int, float), optional
        ``(users, δ)``: compare at the same *central* privacy behind a shuffler. The
        notion (LDP) then gives the central ε; each protocol runs at the largest local
        ε₀ whose shuffled guarantee (:func:`~mechdesign.accounting.shuffle.shuffle_epsilon`) meets
        ``(ε, δ)`` for ``users`` reports (:func:`~mechdesign.accounting.shuffle.local_epsilon_for`
        on the protocol's family, searched up to :data:`SHUFFLE_MAX_LOCAL_EPSILON`), each
        designed row is the design for the central target itself
        (:class:`~mechdesign.accounting.shuffle_design.Shuffled`: the best kernel whose
        clone reduction meets it, its note saying the local ε₀, the clone mass and whether
        it is certified), and a given mechanism stays at its own level. Two columns are
        added, ``local_epsilon`` and ``central_epsilon``, and the rows are ranked by
        ``mse_blue`` (``mse`` where no BLUE error is computed, missing last).
    time_limit : float or None, default :data:`COMPARE_TIME_LIMIT`
        Seconds for each designed row (``None``: no limit); with ``shuffle`` they bound
        the whole search along the frontier. A design stopped by it is the best
        certified so far: its ``note`` gives the certified bracket of an estimation
        design (``lower ≤ optimum ≤ the row's error``) and its status.

    Returns
    -------
    pandas.DataFrame
        One row per mechanism, the columns of :data:`COMPARE_COLUMNS` (plus
        ``local_epsilon`` and ``central_epsilon`` with ``shuffle``); ``.attrs`` holds
        ``epsilon``, ``notion``, ``n`` and ``k``.
    """
    notion = check_notion(notion)
    p = as_distribution(prior, "prior")
    count = check_positive_int(n, "n")
    behind = _check_shuffle(shuffle, notion)
    eps = notion.epsilon
    if not (0 < eps < math.inf):
        raise InvalidInputError(
            f"compare needs the notion's epsilon in 0 < epsilon < inf (the protocols' "
            f"range); got notion = {show(notion)} with epsilon = {show(eps)}."
        )
    if isinstance(utilities, (str, bytes)) or not isinstance(utilities, Sequence):
        raise InvalidInputError(
            f"utilities must be a sequence of utilities such as ('mutual_information', "
            f"'bayes') (a list or tuple, possibly empty); got {show(utilities)}."
        )
    for i, utility in enumerate(utilities):
        _check_utility(utility, f"utilities[{i}]")
    given: dict[str, Mechanism] = {}
    if mechanisms is not None:
        if not isinstance(mechanisms, Mapping):
            raise InvalidInputError(
                f"mechanisms must be a mapping of names to kernels; got {show(mechanisms)}."
            )
        for name, kernel in mechanisms.items():
            where = f"mechanisms[{show(name)}]"
            mechanism = kernel if isinstance(kernel, Mechanism) else Mechanism._validated(
                as_matrix(kernel, where), STOCHASTIC_ATOL)
            if mechanism.n_inputs != p.shape[0]:
                raise InvalidInputError(
                    f"{where} has {mechanism.n_inputs} inputs; the prior has {p.shape[0]}."
                )
            given[str(name)] = mechanism
    k = p.shape[0]
    rows = []
    # the histogram's identity is never built (k may be 10⁴): None stands for it
    histogram = workload is None or (isinstance(workload, str) and workload == "histogram")
    queries = None if histogram else workload_matrix(workload, p.shape[0])
    if time_limit is not None:
        time_limit = check_real(time_limit, "time_limit", low=0.0, low_open=True)
    for utility in utilities:
        if isinstance(utility, str) and utility == "mse":
            utility = EstimationError(workload if workload is None or isinstance(
                workload, str) else queries)
        if behind is None:
            result = design(notion, p, utility=utility, time_limit=time_limit)
        else:
            users, delta = behind
            result = design(Shuffled(notion.epsilon, delta, users), p, utility=utility,
                            time_limit=time_limit)
        note = f"method {result.method}"
        if result.target is not None:
            chosen = result.target
            note += (f"; behind the shuffler at local epsilon0 {chosen.chosen.notion.epsilon:.6g}"
                     f", clone mass {chosen.chosen.notion.r:.6g} ("
                     + ("certified optimal among clone-certified kernels" if chosen.certified
                        else f"search {chosen.stopped}") + ")")
        if result.estimation is not None:
            report = result.estimation
            note += (f"; {report.status}, certified bracket [{report.lower_bound:.6g}, "
                     f"{report.upper_bound:.6g}] per report ({report.lower_bound_source})")
        rows.append(_row(f"optimal for {result.utility_name}", "designed", result.mechanism,
                         notion, p, count, note, queries))
    if mechanisms is None:
        for name in deployed_protocols(k, eps):
            try:
                local = eps if behind is None else _protocol_epsilon(name, k, eps, behind)
            except UnsupportedError as exc:  # blocked Hadamard past its dense accounting
                rows.append(_missing(name, f"no shuffle accounting: {exc}"))
                continue
            if local == 0:
                rows.append(_missing(name, "no local epsilon0 > 0 meets the central target"))
                continue
            implicit = implicit_protocols(k, local)
            build = deployed_protocols(k, local)[name]
            try:
                structure = implicit[name]()
            except TooLargeError as exc:  # OLH's buckets at ε = 700
                rows.append(_missing(name, str(exc)))
                continue
            try:
                if structure.n_outputs * k > COMPARE_DENSE_MAX_ENTRIES:
                    raise TooLargeError("beyond compare's dense cap")
                oracle = build()
            except TooLargeError:  # too many outputs: the implicit oracle's row
                rows.append(_implicit_row(name, structure, p, count, queries))
                continue
            except UnsupportedError as exc:  # the kernel underflows
                rows.append(_missing(name, str(exc)))
                continue
            rows.append(_row(name, "protocol", oracle, notion, p, count, oracle.protocol,
                             queries))
            rows[-1]["_structure"] = structure
    else:
        for name, mechanism in given.items():
            rows.append(_row(name, "given", mechanism, notion, p, count, "", queries))
    table = pd.DataFrame(rows, columns=list(COMPARE_COLUMNS))
    table.attrs.update(epsilon=eps, notion=show(notion), n=count, k=k)
    if behind is not None:
        table = _shuffled_columns(table, rows, behind)
    return table


def _check_utility(utility: object, name: str) -> None:
    """A utility :func:`~mechdesign.optimal.design` accepts (a name, an
    :class:`~mechdesign.optimal.EstimationError` or a
    :class:`~mechdesign.optimal.Utility`), or raise naming ``name``."""
    if isinstance(utility, str):
        if utility in UTILITIES:
            return
    elif isinstance(utility, EstimationError | Utility):
        return
    raise InvalidInputError(
        f"{name} must be one of {UTILITIES} or a utility object (a subclass of "
        f"mechdesign.optimal.Utility, such as GainUtility); got {show(utility)}."
    )


def _row(name, kind, kernel, notion, prior, n, note, queries) -> dict[str, object]:
    return {
        "mechanism": name,
        "kind": kind,
        "outputs": kernel.n_outputs,
        "mutual_information": mutual_information(kernel, prior),
        "bayes_vulnerability": bayes_vulnerability(kernel, prior),
        "mse": estimation_mse(kernel, prior, n, workload=queries),
        "mse_blue": estimation_mse(kernel, prior, n, estimator="blue", workload=queries),
        "ldp_level": ldp_level(kernel),
        "privacy_level": notion.level(kernel),
        "note": note,
        "_kernel": kernel,
    }


def _implicit_row(name, oracle: PureOracle, prior, n, queries) -> dict[str, object]:
    """A protocol whose dense kernel is too large: the exact errors its structure gives
    (:class:`~mechdesign.mechanisms.oracles.PureOracle`: the standard estimator's for every
    protocol and workload but OLH's workloads; the BLUE's for GRR and unary encoding),
    NaN for the measures that need the kernel, and a note saying which is which."""
    row: dict[str, object] = dict.fromkeys(COMPARE_COLUMNS, math.nan)
    outputs = oracle.n_outputs
    size = f"{float(outputs):.3g}" if outputs < 2**1023 else f"2^{outputs.bit_length() - 1}"
    row.update(mechanism=name, kind="protocol",
               outputs=float(outputs) if outputs < 2**1023 else math.inf)
    missing = ["mutual information", "Bayes vulnerability", "audits"]
    for column, error in (("mse", oracle.mse), ("mse_blue", oracle.blue_mse)):
        try:
            row[column] = error(prior, n, workload=queries)
        except (UnsupportedError, TooLargeError):
            missing.append("the BLUE's error" if column == "mse_blue" else "the error")
    row["_kernel"] = oracle
    row["note"] = (f"{oracle.protocol}: implicit ({size} outputs, beyond the dense cap), "
                   f"exact errors from its structure; not computed: {', '.join(missing)}")
    return row


def _missing(name: str, reason: str) -> dict[str, object]:
    row: dict[str, object] = dict.fromkeys(COMPARE_COLUMNS, math.nan)
    row.update(mechanism=name, kind="protocol", outputs=math.nan, note=f"skipped: {reason}",
               _kernel=None)
    return row


# -- behind a shuffler --------------------------------------------------------------------


def _check_shuffle(shuffle: object, notion: Notion) -> tuple[int, float] | None:
    """``(users, δ)`` of compare's ``shuffle``, or None; only LDP has a central ε."""
    if shuffle is None:
        return None
    if not isinstance(shuffle, tuple) or len(shuffle) != 2:
        raise InvalidInputError(
            f"shuffle must be a pair (users, delta) such as (100000, 1e-6); got {show(shuffle)}.")
    users = check_positive_int(shuffle[0], "shuffle[0] (users)")
    delta = as_real(shuffle[1], "shuffle[1] (delta)")
    if not 0 < delta < 1:
        raise InvalidInputError(
            f"shuffle[1] (delta) must lie in the open interval (0, 1); got {show(shuffle[1])}.")
    if not isinstance(notion, LDP):
        raise UnsupportedError(
            f"compare(shuffle=...) compares at a central (epsilon, delta) between any two "
            f"inputs, which the shuffle model gives for LDP; got notion = {show(notion)}.")
    return users, delta


def _protocol_epsilon(name: str, k: int, central: float, behind: tuple[int, float]) -> float:
    """The largest local ε₀ of the named protocol meeting the central target."""
    users, delta = behind

    def family(eps0: float) -> PureOracle:
        return implicit_protocols(k, eps0)[name]()

    return local_epsilon_for(central, delta, users, family, ceiling=SHUFFLE_MAX_LOCAL_EPSILON)


def _shuffled_columns(table: pd.DataFrame, rows: list[dict], behind: tuple[int, float]):
    """Add local and central ε to compare's table and rank it by mse_blue."""
    users, delta = behind
    local, central = [], []
    for row in rows:
        kernel = row["_kernel"]
        if kernel is None:
            local.append(math.nan)
            central.append(math.nan)
            continue
        # a protocol as the structure its ε₀ search accounted for (shuffle_epsilon
        # remembers it: the search has just verified that ε₀)
        result = shuffle_epsilon(row.get("_structure", kernel), users, delta)
        local.append(result.parameters.epsilon0)
        central.append(result.epsilon)
    table = table.assign(local_epsilon=local, central_epsilon=central)
    error = table["mse_blue"].fillna(table["mse"])
    table = table.iloc[np.argsort(error.fillna(np.inf).to_numpy(), kind="stable")]
    table = table.reset_index(drop=True)
    table.attrs.update(shuffle_users=users, shuffle_delta=delta)
    return table
