"""`python -m ascend_migrate`: the same entry point as the `ascend-migrate` console script."""

import sys

from ascend_migrate.cli import main

if __name__ == "__main__":
    sys.exit(main())
