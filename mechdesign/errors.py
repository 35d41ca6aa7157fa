"""The package's exceptions: one root, a few meaningful subclasses.

Every error mechdesign raises on purpose derives from :class:`MechDesignError`.
Errors about arguments also derive from :class:`ValueError`, so ``except ValueError``
keeps working for callers that do not know this package.
"""

from __future__ import annotations

from mechdesign.status import Status

__all__ = [
    "ExecutorError",
    "InfeasibleError",
    "InvalidInputError",
    "MechDesignError",
    "SolverError",
    "TooLargeError",
    "UnsupportedError",
]


class MechDesignError(Exception):
    """Root of every exception raised by mechdesign."""


class InvalidInputError(MechDesignError, ValueError):
    """An argument violates a stated condition; the message names the argument and value."""


class InfeasibleError(MechDesignError):
    """A design or audit problem has no feasible point (for example an empty notion)."""


class SolverError(MechDesignError):
    """A numerical solver or iteration did not finish with a usable answer.

    Parameters
    ----------
    message : str
        What failed, for a reader.
    status : Status or str
        How it ended, in the package's closed vocabulary (:class:`~mechdesign.status.Status`;
        a string must be one of its values).
    solver_status : str, optional
        The solver's own words, verbatim (HiGHS's model status such as ``"Infeasible"``,
        Clarabel's, cddlib's), when there are any.

    Attributes
    ----------
    message : str
        As given; the error's text is ``"{message} (solver status: {status})"``, with the
        solver's own words after the status when there are any.
    status : Status
        As given, as a :class:`~mechdesign.status.Status`.
    solver_status : str or None
        As given.
    """

    def __init__(self, message: str, *, status: Status | str,
                 solver_status: str | None = None) -> None:
        status = Status(status)  # a status outside the vocabulary is a bug: ValueError
        said = status.value if solver_status is None else f"{status.value}: {solver_status}"
        super().__init__(f"{message} (solver status: {said})")
        self.message = message
        self.status = status
        self.solver_status = solver_status

    def __reduce__(self):
        # Picklable, so the error crosses process boundaries (a multiprocessing worker
        # that raised it otherwise broke the whole pool: the parent could not unpickle
        # an exception whose __init__ needs the keyword argument ``status``).
        return (_solver_error, (self.message, self.status.value, self.solver_status))


def _solver_error(message: str, status: str, solver_status: str | None = None) -> SolverError:
    return SolverError(message, status=status, solver_status=solver_status)


class ExecutorError(MechDesignError):
    """The processes a sweep runs on failed, not the task: its workers die before running
    any point (while starting, or while loading the task), or the executor refuses work.
    Nothing is stored for the points it did not run; the message names the cause and the
    fix."""


class TooLargeError(MechDesignError):
    """A computation would exceed a configured size limit (for example vertex enumeration)."""


class UnsupportedError(MechDesignError, NotImplementedError):
    """A valid request that mechdesign cannot answer (for example exact pricing for a
    notion whose vertices have no known pattern); the message names the reason and what
    to use instead. Also a :class:`NotImplementedError`."""
