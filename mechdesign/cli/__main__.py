"""``python -m mechdesign.cli``: the ``mechdesign`` command."""

import sys

from mechdesign.cli import main

if __name__ == "__main__":
    sys.exit(main())
