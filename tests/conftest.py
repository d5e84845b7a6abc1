"""Suite-wide settings: the knowledge-base cache lives in a temporary directory, never in the user's home."""

import os
import tempfile

# Set at import time so that every subprocess the tests start (the CLI, the language server) inherits it.
os.environ.setdefault("ASCEND_MIGRATE_CACHE_DIR", tempfile.mkdtemp(prefix="ascend-migrate-cache-"))
