"""`python -m ascend_migrate`: the same entry point as the `ascend-migrate` console script."""

import os
import sys

# `python -m` puts the working directory first on sys.path, and editors start the server with the workspace
# folder as working directory: a project file named yaml.py or libcst.py would be imported and run. The
# scanned code must never run, so the working directory goes before anything else is imported.
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from ascend_migrate.cli import main  # noqa: E402  (must follow the sys.path clean-up)

if __name__ == "__main__":
    sys.exit(main())
