"""One module per CLI command; see ascend_migrate.cli."""
