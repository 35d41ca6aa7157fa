"""``python -m mechdesign``: the command line (:func:`mechdesign.cli.main`)."""

from mechdesign.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
