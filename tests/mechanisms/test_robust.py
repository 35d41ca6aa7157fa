"""The one registry of robust-LDP mechanisms (mechdesign.mechanisms.robust): names and
spellings, refusals by name, and what each name builds."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.notions import NonRobustLDP

P_HAT = np.array([0.07, 0.10, 0.26, 0.57])
SHAPE = (2, 2)
BALL = md.RenyiBall(P_HAT, 2.0, md.chi2_radius(100, 4, 0.05))


def test_registry_names_and_spellings():
    assert md.mechanisms.ROBUST_LDP_MECHANISMS == ("GRR", "SRR", "IR", "PolyOpt",
                                                   "PolyOpt-paper", "NR")
    for spelling in ("polyopt-paper", "PolyOpt-paper", "POLYOPT-PAPER"):
        built = md.mechanisms.robust_ldp_mechanism(spelling, 1.0, BALL, SHAPE)
        assert built.name == "PolyOpt-paper"
    with pytest.raises(md.InvalidInputError, match=r"mechanism must be one of .*'GRR'"):
        md.mechanisms.robust_ldp_mechanism("polyopt2", 1.0, BALL, SHAPE)


def test_registry_refuses_bad_arguments_by_name():
    with pytest.raises(md.InvalidInputError, match=r"ball must be a mechdesign\.RenyiBall"):
        md.mechanisms.robust_ldp_mechanism("SRR", 1.0, P_HAT, SHAPE)
    with pytest.raises(md.InvalidInputError, match="epsilon"):
        md.mechanisms.robust_ldp_mechanism("GRR", -1.0, BALL, SHAPE)
    with pytest.raises(md.InvalidInputError, match="shape"):
        md.mechanisms.robust_ldp_mechanism("SRR", 1.0, BALL, (3, 2))


def test_registry_at_a_huge_epsilon_is_the_identity_limit():
    grr = md.mechanisms.robust_ldp_mechanism("GRR", 700.0, BALL, SHAPE).mechanism
    assert np.allclose(grr.matrix, np.eye(4), atol=1e-300)


def test_registry_builds_what_each_name_means():
    eps = math.log(2)
    grr = md.mechanisms.robust_ldp_mechanism("GRR", eps, BALL, SHAPE).mechanism
    assert md.ldp_level(grr) == pytest.approx(eps, abs=1e-12)
    assert grr.n_inputs == 4
    srr = md.mechanisms.robust_ldp_mechanism("SRR", eps, BALL, SHAPE).mechanism
    assert np.allclose(srr.matrix, md.mechanisms.secret_randomized_response(SHAPE, eps).matrix)
    nr = md.mechanisms.robust_ldp_mechanism("NR", eps, BALL, SHAPE)
    assert md.mutual_information(nr.mechanism, P_HAT) == pytest.approx(
        md.design(NonRobustLDP(eps, P_HAT, SHAPE), P_HAT).utility, abs=1e-9)
    polyopt = md.mechanisms.robust_ldp_mechanism("PolyOpt", eps, BALL, SHAPE)
    assert polyopt.details["certificate_holds"]
    # PolyOpt is robust over the ball; its utility is below NR's (a smaller cone).
    assert md.robust_ldp_level(polyopt.mechanism, BALL, SHAPE) <= eps + 1e-9
    assert md.mutual_information(polyopt.mechanism, P_HAT) <= md.mutual_information(
        nr.mechanism, P_HAT) + 1e-9
    ir = md.mechanisms.robust_ldp_mechanism("IR", eps, BALL, SHAPE)
    assert set(ir.details) == {"epsilon2", "delta2", "d"}
