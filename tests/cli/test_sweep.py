"""mechdesign sweep (mechdesign.cli.sweep): the table, figure and store, resumed; mistakes
(an unknown mechanism among them, issue 36 item 4) are one line; compare's names are
families; a Dask scheduler gives the same table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mechdesign as md
from mechdesign.priors import make_prior
from tests.cli.installed import run


def test_the_command_line_sweep_writes_table_figure_and_resumes(tmp_path, capsys):
    from mechdesign.cli import main

    argv = ["sweep", "--epsilon", "0.5:2:3", "--n", "3,4", "--prior", "dirichlet:2",
            "--out", str(tmp_path), "--workers", "1", "--quiet"]
    assert main(argv) == 0
    table = pd.read_csv(tmp_path / "sweep.csv", keep_default_na=False)
    assert len(table) == 12
    assert (tmp_path / "sweep.png").stat().st_size > 10_000
    for row in table.itertuples():
        prior = make_prior("dirichlet", int(row.n), int(row.rep))
        direct = md.design(md.LDP(row.epsilon), prior).utility
        assert row.utility == pytest.approx(direct, rel=1e-9)
    capsys.readouterr()
    assert main(argv) == 0  # everything from the store
    assert "12 rows (0 failed)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--epsilon", "a:b", "--n", "3"], "--epsilon must be"),
        (["--epsilon", "1", "--n", "1"], "--n values must be between"),
        (["--epsilon", "1", "--n", "3", "--prior", "dirichlet:0"], "positive integer R"),
        (["--epsilon", "1", "--n", "3", "--prior", "beta"], "--prior must be"),
        (["--epsilon", "1", "--n", "3", "--task", "envelope"], "--delta is required"),
        (["--epsilon", "nan", "--n", "3"], "finite"),
        (["--epsilon", "1", "--n", "3", "--workers", "0"], "--workers must be"),
    ],
)
def test_command_line_sweep_mistakes_are_one_line(tmp_path, capsys, extra, message):
    from mechdesign.cli import main

    assert main(["sweep", "--out", str(tmp_path), "--quiet", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_the_command_line_runs_on_a_dask_scheduler(tmp_path):
    distributed = pytest.importorskip("distributed")
    from mechdesign.cli import main

    argv = ["sweep", "--task", "measure", "--epsilon", "0.5,1", "--n", "3,4",
            "--out", str(tmp_path), "--quiet"]
    assert main([*argv, "--workers", "1"]) == 0
    serial = pd.read_csv(tmp_path / "sweep.csv", keep_default_na=False)
    (tmp_path / "sweep.sqlite").unlink()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    dask = pd.read_csv(tmp_path / "sweep.csv", keep_default_na=False)
    pd.testing.assert_frame_equal(serial.drop(columns="seconds"), dask.drop(columns="seconds"))
    assert len(dask) == 16


def test_sweep_refuses_an_unknown_mechanism_before_any_point(tmp_path):
    """Item 4: exit 2, one line naming --mechanism and every valid name, nothing stored."""
    from mechdesign.sweeps import FAMILIES

    out = tmp_path / "sweep"
    done = run("sweep", "--task", "measure", "--mechanism", "grr,foo", "--epsilon", "1",
                "--n", "4", "--out", str(out))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    assert "--mechanism" in done.stderr
    assert "'foo'" in done.stderr
    assert all(name in done.stderr for name in FAMILIES)
    assert not out.exists()
    with pytest.raises(md.InvalidInputError, match=r"mechanism must be one of grr, oue"):
        md.sweeps.measure_task("foo", 1.0, 4)
    with pytest.raises(md.InvalidInputError, match=r"mechanism must be one of .*pml_extremal"):
        md.sweeps.envelope_task("randomised response", 1.0, 4, 0.1)


def test_sweep_help_lists_the_mechanisms_and_they_are_the_tasks_names():
    from mechdesign.cli.inputs import SWEEP_MECHANISMS
    from mechdesign.sweeps import FAMILIES

    assert SWEEP_MECHANISMS == FAMILIES
    done = run("sweep", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for name in FAMILIES:
        assert name in text


def test_sweep_accepts_compares_names_and_measures_what_compare_measures(tmp_path):
    """Item 4: every protocol name of ``compare`` is a sweep family; the sweep's mutual
    information of each equals the row ``compare`` prints for it."""
    k, eps = 4, 1.0
    table = md.compare(md.LDP(eps), np.full(k, 1.0 / k), n=100)
    protocols = table[table["kind"] == "protocol"]
    names = list(protocols["mechanism"])
    assert len(names) == 6
    out = tmp_path / "sweep"
    done = run("sweep", "--task", "measure", "--mechanism", ",".join(names), "--epsilon",
                str(eps), "--n", str(k), "--workers", "1", "--quiet", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "6 rows (0 failed)" in done.stdout
    import pandas as pd

    swept = pd.read_csv(out / "sweep.csv").set_index("mechanism")
    canonical = {"GRR": "grr", "OUE": "oue", "SUE (RAPPOR)": "sue",
                 "subset selection": "subset_selection", "OLH": "olh",
                 "Hadamard response": "hadamard_response"}
    for row in protocols.itertuples():
        assert swept.loc[canonical[row.mechanism], "mutual_information"] == pytest.approx(
            row.mutual_information, rel=1e-12, abs=1e-15)
