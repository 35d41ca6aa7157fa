"""`mechdesign reproduce` on the command line (mechdesign.cli.reproduce)."""

from __future__ import annotations

import pytest

from mechdesign.cli import main


@pytest.mark.slow
def test_cli_reproduce_quick(tmp_path, capsys):
    # The Adult data ship with the package, so Fig. 2 is reproduced, never skipped.
    out = tmp_path / "rep"
    assert main(["reproduce", "--paper", "robust-ldp", "--quick", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "robust-ldp Fig. 2" in printed.replace("  ", " ")
    assert "skipped" not in printed
    assert "0 differ" in printed
    assert (out / "summary.md").is_file()
    assert (out / "robust-ldp" / "fig3_synthetic_nmi.png").is_file()
    assert (out / "robust-ldp" / "fig2_adult_nmi.csv").is_file()


def test_cli_reproduce_refuses_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["reproduce", "--paper", "nope"])
    assert main(["reproduce", "--paper", "robust-ldp", "--workers", "0",
                 "--out", str(tmp_path)]) == 2
    assert "workers must be a positive integer" in capsys.readouterr().err
    # a missing data file is refused before anything runs (no item FAILED, exit 2)
    assert main(["reproduce", "--paper", "robust-ldp", "--data", str(tmp_path / "no.csv"),
                 "--out", str(tmp_path / "out")]) == 2
    said = capsys.readouterr()
    assert "data must name an existing file" in said.err
    assert "no.csv" in said.err
    assert said.out == ""
    assert not (tmp_path / "out").exists()
