"""One closed vocabulary for how a computation ended.

:class:`Status` is what :attr:`Design.status <mechdesign.optimal.Design.status>`, the
column-generation and estimation reports' ``status`` and
:attr:`SolverError.status <mechdesign.errors.SolverError.status>` hold. It is a
:class:`~enum.StrEnum`: a member equals its value (``Status.OPTIMAL == "optimal"``), prints
as it and serialises to JSON as it. The width of an unclosed bracket is never part of the
status: it is the report's own ``gap`` field. A solver's own words, when there are any
(HiGHS's model status, Clarabel's, cddlib's), are kept beside the status as
``solver_status``.

Each solver's statuses are translated where the package talks to that solver: HiGHS's
``highspy.HighsModelStatus`` in :mod:`mechdesign._solvers.highs`, cvxpy's status strings by
:func:`from_cvxpy`.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status", "from_cvxpy"]


class Status(StrEnum):
    """How a solve, a design or an iteration ended.

    Answers:

    - ``OPTIMAL``: solved, and certified optimal to the requested tolerance;
    - ``FEASIBLE``: a certified feasible answer whose optimality bracket did not close
      (the report's ``gap`` says by how much);
    - ``INTERRUPTED``: stopped by the user (Ctrl-C); the best certified answer so far;
    - ``TIME_LIMIT``, ``ITERATION_LIMIT``, ``LIMIT`` (another of HiGHS's limits: solutions,
      objective bound or target): stopped by a limit.

    Failures (carried by :class:`~mechdesign.errors.SolverError`):

    - ``INFEASIBLE``, ``UNBOUNDED``, ``INFEASIBLE_OR_UNBOUNDED``: a property of the problem
      as the solver read it;
    - ``NUMERICAL_ERROR``: the solver or an enumeration broke down numerically, or
      returned something its checks refuse (a vertex outside the section, rays of a
      bounded section, an all-zero LP solution);
    - ``MODEL_ERROR``: the solver could not load the model or refused an option;
    - ``MEMORY_LIMIT``: the solver ran out of memory;
    - ``CERTIFICATE_FAILED``, ``AUDIT_FAILED``: a result failed the package's own
      independent check (the LP certificate, the privacy audit).
    """

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INTERRUPTED = "interrupted"
    TIME_LIMIT = "time limit"
    ITERATION_LIMIT = "iteration limit"
    LIMIT = "limit"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"
    INFEASIBLE_OR_UNBOUNDED = "infeasible or unbounded"
    NUMERICAL_ERROR = "numerical error"
    MODEL_ERROR = "model error"
    MEMORY_LIMIT = "memory limit"
    CERTIFICATE_FAILED = "certificate failed"
    AUDIT_FAILED = "audit failed"


#: cvxpy's status strings (``cvxpy.settings``: OPTIMAL, OPTIMAL_INACCURATE, INFEASIBLE,
#: ...) and what they are here. An inaccurate answer is a numerical error: the package
#: does not accept an answer its solver does not vouch for.
_CVXPY: dict[str, Status] = {
    "optimal": Status.OPTIMAL,
    "optimal_inaccurate": Status.NUMERICAL_ERROR,
    "infeasible": Status.INFEASIBLE,
    "infeasible_inaccurate": Status.INFEASIBLE,
    "unbounded": Status.UNBOUNDED,
    "unbounded_inaccurate": Status.UNBOUNDED,
    "infeasible_or_unbounded": Status.INFEASIBLE_OR_UNBOUNDED,
    "user_limit": Status.LIMIT,
    "solver_error": Status.NUMERICAL_ERROR,
}


def from_cvxpy(status: object) -> Status:
    """The :class:`Status` of a cvxpy problem status (a string of ``cvxpy.settings``);
    a status unknown to this table (a newer cvxpy's) is a numerical error.

    Parameters
    ----------
    status : str
        ``problem.status`` after ``problem.solve()``.

    Returns
    -------
    Status
    """
    return _CVXPY.get(str(status), Status.NUMERICAL_ERROR)
