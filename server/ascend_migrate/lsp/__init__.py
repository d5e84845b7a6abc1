"""lsp room."""
