"""mechdesign sweep (mechdesign.cli.sweep): the table, figure and store, resumed; mistakes
are one line; a Dask scheduler gives the same table."""

from __future__ import annotations

import pandas as pd
import pytest

import mechdesign as md
from mechdesign.sweeps import make_prior


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
