"""The package's exceptions: one root, a few meaningful subclasses.

Every error mechdesign raises on purpose derives from :class:`MechDesignError`.
Errors about arguments also derive from :class:`ValueError`, so ``except ValueError``
keeps working for callers that do not know this package.
"""

from __future__ import annotations

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
        What failed; the error's text is ``"{message} (solver status: {status})"``.
    status : str
        The solver's own status (for example HiGHS's model status, or
        ``"iteration_limit"`` for an iterative method), kept verbatim.

    Attributes
    ----------
    message : str
        As given.
    status : str
        As given.
    """

    def __init__(self, message: str, *, status: str) -> None:
        super().__init__(f"{message} (solver status: {status})")
        self.message = message
        self.status = status

    def __reduce__(self):
        # Picklable, so the error crosses process boundaries (a multiprocessing worker
        # that raised it otherwise broke the whole pool: the parent could not unpickle
        # an exception whose __init__ needs the keyword argument ``status``).
        return (_solver_error, (self.message, self.status))


def _solver_error(message: str, status: str) -> SolverError:
    return SolverError(message, status=status)


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
