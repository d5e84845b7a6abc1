"""Suite-wide settings: the knowledge-base cache lives in a temporary directory, never in the user's home."""

import atexit
import os
import shutil
import tempfile

# Set at import time so that every subprocess the tests start (the CLI, the language server) inherits it.
if "ASCEND_MIGRATE_CACHE_DIR" not in os.environ:
    _cache_directory = tempfile.mkdtemp(prefix="ascend-migrate-cache-")
    os.environ["ASCEND_MIGRATE_CACHE_DIR"] = _cache_directory
    atexit.register(shutil.rmtree, _cache_directory, ignore_errors=True)
