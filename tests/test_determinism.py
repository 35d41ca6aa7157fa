"""The same design call gives the same bytes: twice in one process, and in a fresh one.

Issue 36, item 1: ``md.design(md.LDP(2.0), md.comparison.zipf_prior(24))`` twice in one process gave
kernels differing by 0.39 entrywise (equal utilities), because column management read the
master's share of the wall-clock time. The path of a design now reads no clock (the
source decides whether to prune its master; pricing MIPs stop at a node count), so the
kernel, its utility and the whole bracket history are bitwise identical.
"""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys

import numpy as np
import pytest

import mechdesign as md
from mechdesign.optimal import column_generation
from tests.helpers import ROOT


def _instances(slow: bool) -> dict[str, tuple]:
    """Named design calls ``(notion, prior, options)``: every method and source."""
    prior9 = np.random.default_rng(9).dirichlet(np.ones(9))
    p_hat = np.array([0.07, 0.10, 0.26, 0.57])
    ball = md.RenyiBall(p_hat, 2, md.chi2_radius(100, 4, 0.05))
    cases = {
        # ε-LDP by column generation, its master pruned on the way (checked below).
        "ldp-cg-zipf12": (md.LDP(2.0), md.comparison.zipf_prior(12),
                          {"method": "column_generation"}),
        "pml-cg": (md.PML(1.0, c=1 / 18), prior9, {"method": "column_generation"}),
        "ldp-enumeration": (md.LDP(1.0), prior9[:6] / prior9[:6].sum(),
                            {"method": "enumeration"}),
        "bayes-cg": (md.LDP(1.0), md.comparison.zipf_prior(10),
                     {"method": "column_generation", "utility": "bayes"}),
        "polyopt": (md.RobustLDP(math.log(2), ball, (2, 2)), p_hat, {}),
    }
    if slow:
        # The issue's own call (method "auto": column generation at N = 24).
        cases["ldp-auto-zipf24"] = (md.LDP(2.0), md.comparison.zipf_prior(24), {})
        # (ε, c)-PML's own column management (20 columns per input) prunes from N = 48.
        cases["pml-cg-48"] = (md.PML(1.0, c=1 / 96),
                              np.random.default_rng(48).dirichlet(np.ones(48)),
                              {"method": "column_generation"})
    return cases


def _digest(design: md.Design) -> str:
    """Every byte of the result that must not change: the kernel, the utility, the
    certificate's dual and, for column generation, the bracket at every iteration."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(design.mechanism.matrix).tobytes())
    h.update(np.float64(design.utility).tobytes())
    h.update(np.ascontiguousarray(design.certificate.dual, dtype=float).tobytes())
    run = design.column_generation
    if run is not None:
        h.update(np.asarray(run.history, dtype=float).tobytes())
        h.update(str((run.iterations, run.columns, run.status)).encode())
    return h.hexdigest()


def digests(slow: bool = False) -> dict[str, str]:
    """The digest of each instance's design (run in this process), with column management
    switched on for small masters too (MASTER_PRUNE_MIN_COLUMNS = 0), so that the
    instances exercise it at their sizes."""
    floor = column_generation.MASTER_PRUNE_MIN_COLUMNS
    column_generation.MASTER_PRUNE_MIN_COLUMNS = 0
    try:
        return {name: _digest(md.design(notion, prior, progress=False, **options))
                for name, (notion, prior, options) in _instances(slow).items()}
    finally:
        column_generation.MASTER_PRUNE_MIN_COLUMNS = floor


def _in_fresh_process(slow: bool) -> dict[str, str]:
    code = ("import json; from tests.test_determinism import digests; "
            f"print(json.dumps(digests({slow})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=900)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("slow", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["small", "issue-zipf24"])
def test_the_same_design_twice_gives_the_same_bytes(slow):
    first = digests(slow)
    second = digests(slow)  # same process: any state or clock-read would show here
    fresh = _in_fresh_process(slow)
    assert second == first
    assert fresh == first


@pytest.mark.parametrize(("name", "per_input"), [
    ("ldp-cg-zipf12", 5),
    pytest.param("pml-cg-48", 20, marks=pytest.mark.slow),
])
@pytest.mark.slow
def test_the_column_generation_instances_prune_their_masters(monkeypatch, name, per_input):
    # The instances above exercise column management (the rule that used to read the
    # clock), each at its source's own size; if they stopped pruning, the test above
    # would no longer guard it.
    master_module = sys.modules["mechdesign.optimal.master"]
    calls = []
    original = master_module.RestrictedMaster.prune

    def counted(self, keep, dual, **options):
        calls.append(keep)
        return original(self, keep, dual, **options)

    monkeypatch.setattr(master_module.RestrictedMaster, "prune", counted)
    monkeypatch.setattr(column_generation, "MASTER_PRUNE_MIN_COLUMNS", 0)  # as digests()
    notion, prior, options = _instances(True)[name]
    md.design(notion, prior, progress=False, **options)
    n = prior.shape[0]
    assert calls
    assert set(calls) == {per_input * n}


@pytest.mark.slow
def test_a_jittered_clock_does_not_change_the_path(monkeypatch):
    # Every clock the design engine reads advances by random amounts (a loaded machine,
    # taken to the extreme): without a time limit the result is the same bytes. (The
    # old rule, prune while the master's solves take a quarter of the elapsed time,
    # took different paths under two such clocks.)
    import time as time_module

    notion, prior, options = _instances(False)["ldp-cg-zipf12"]
    expected = _digest(md.design(notion, prior, progress=False, **options))
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        now = [0.0]

        def jittered(rng=rng, now=now):
            now[0] += float(rng.exponential(rng.choice([1e-6, 1e-1])))
            return now[0]

        monkeypatch.setattr(time_module, "perf_counter", jittered)
        got = _digest(md.design(notion, prior, progress=False, **options))
        monkeypatch.undo()
        assert got == expected
