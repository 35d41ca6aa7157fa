"""OpenDP export.

**OpenDP** (:func:`to_opendp`): the rational kernel as an OpenDP measurement.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from mechdesign._validation import (
    as_generator,
)
from mechdesign.deployment.rational import rational_mechanism
from mechdesign.kernel import (
    Mechanism,
)

__all__ = [
    "to_opendp",
]


def to_opendp(K: Mechanism | ArrayLike, epsilon: float, *, bits: int = 32,
              rng: np.random.Generator | int | None = None):
    """``K`` as an OpenDP ``Measurement`` (the optional extra ``mechdesign[opendp]``) for
    one individual's value: input an integer in ``[0, N)`` (OpenDP's ``atom_domain`` with
    those bounds, ``T=int``), ``discrete_distance`` between inputs (any two values are
    neighbours: local DP), ``max_divergence`` (pure ε-DP) as the output measure.

    The invocation samples the exact rational kernel of :func:`rational_mechanism` (so
    the released law is exactly the kernel audited), and the privacy map is its certified
    level: ``map(0) = 0``, ``map(d) = level ≤ ε`` for ``d ≥ 1``. OpenDP does not check
    a user measurement's input against its domain; the sampler refuses a value outside
    ``[0, N)`` (an error naming the inputs, raised through OpenDP).

    OpenDP features: the measurement is built with ``make_user_measurement``, which needs
    ``"contrib"`` and ``"honest-but-curious"``; this function enables both
    (``opendp.prelude.enable_features``), a process-wide setting of OpenDP. The privacy
    guarantee is this package's certificate, not a proof checked by OpenDP.

    Parameters
    ----------
    K : Mechanism or array_like, shape (N, M)
        The kernel ``K[x, y] = P(Y=y | X=x)``; an array must be finite, non-negative and
        row-stochastic (rows sum to 1 within ``STOCHASTIC_ATOL``, or within its own
        precision for float32 or float16 input).
        Its LDP level must be at most ``epsilon``.
    epsilon : float
        The level to certify (:func:`rational_mechanism`).
    bits : int, default 32
        Precision of the rational kernel.
    rng : numpy.random.Generator or int, optional
        The randomness of the invocations (fresh operating-system entropy by default).

    Raises
    ------
    UnsupportedError
        OpenDP is not installed.
    """
    try:
        import opendp.prelude as dp
    except ImportError as exc:
        from mechdesign.errors import UnsupportedError

        raise UnsupportedError(
            "to_opendp needs OpenDP: pip install 'mechdesign[opendp]'.") from exc
    rational = rational_mechanism(K, epsilon, bits=bits)
    generator = as_generator(rng)
    n = rational.numerators.shape[0]
    dp.enable_features("contrib", "honest-but-curious")

    def release(x: int) -> int:
        return int(rational.sample(np.array([x]), generator)[0])

    def privacy_map(distance: int) -> float:
        return 0.0 if distance == 0 else rational.level

    return dp.m.make_user_measurement(
        dp.atom_domain(bounds=(0, n - 1), T=int), dp.discrete_distance(),
        dp.max_divergence(), function=release, privacy_map=privacy_map, TO=int)
