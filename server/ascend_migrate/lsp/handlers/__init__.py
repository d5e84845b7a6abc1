"""The server's handlers, one module per group of LSP messages; `application.py` registers them."""
