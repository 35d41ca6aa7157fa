"""The notion interface (mechdesign.notions.base): an abstract base class that every
notion of the package subclasses, and the check that refuses anything else by name."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mechdesign as md
from mechdesign.notions import (
    NonRobustLDP,
    Notion,
    SecretLDP,
    check_notion,
    check_notion_epsilon,
)


def _notions():
    ball = md.RenyiBall(np.full(4, 0.25), 2.0, 0.01)
    return [md.LDP(1.0), md.PML(1.0, c=0.1), md.PML(1.0, prior=[0.5, 0.5]),
            md.RobustLDP(1.0, ball, (2, 2)), NonRobustLDP(1.0, np.full(4, 0.25), (2, 2)),
            SecretLDP(1.0, (2, 2))]


@pytest.mark.parametrize("notion", _notions(), ids=lambda n: type(n).__name__)
def test_every_notion_of_the_package_is_a_notion(notion):
    assert isinstance(notion, Notion)
    assert check_notion(notion) is notion


def test_the_abstract_base_declares_what_the_engine_reads():
    assert set(Notion.__abstractmethods__) == {"input_size", "cone", "level",
                                               "dobrushin_bound"}
    with pytest.raises(TypeError):
        Notion()


def test_vertex_bound_defaults_to_none_and_the_closed_forms_bound_the_cone():
    ball = md.RenyiBall(np.full(4, 0.25), 2.0, 0.01)
    assert md.RobustLDP(1.0, ball, (2, 2)).vertex_bound(4) is None  # no closed form
    # ε-LDP's section has exactly 2^N − 2 vertices: the closed form is the count.
    assert md.LDP(1.0).vertex_bound(4) == 14
    assert len(md.LDP(1.0).cone(4).vertices("cdd")) == 14
    # (ε, c)-PML's closed form bounds cddlib's count from above.
    assert len(md.PML(1.0, c=0.1).cone(4).vertices("cdd")) <= md.PML(1.0, c=0.1).vertex_bound(4)


@pytest.mark.parametrize("bad", ["ldp", None, 1.0, object()])
def test_check_notion_refuses_anything_else_by_name(bad):
    with pytest.raises(md.InvalidInputError, match="target must be a privacy notion"):
        check_notion(bad, "target")


def test_a_duck_typed_notion_is_refused():
    class LooksLikeANotion:
        epsilon = 1.0
        input_size = None

        def cone(self, n):
            return md.LDP(1.0).cone(n)

        def level(self, kernel):
            return 0.0

        def dobrushin_bound(self, n):
            return None

    with pytest.raises(md.InvalidInputError, match=r"subclass of mechdesign\.notions\.Notion"):
        check_notion(LooksLikeANotion())


@pytest.mark.parametrize(("value", "ok"), [(0.0, True), (2.5, True), (math.inf, False),
                                           (-1.0, False), (math.nan, False)])
def test_check_notion_epsilon(value, ok):
    if ok:
        assert check_notion_epsilon(value) == value  # exact: returned as given
    else:
        with pytest.raises(md.InvalidInputError, match="epsilon"):
            check_notion_epsilon(value)
