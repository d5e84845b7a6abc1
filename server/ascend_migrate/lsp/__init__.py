"""The language server (`ascend-migrate serve`): pygls wiring, the open-document store, the analysis worker,
and the conversion of findings to LSP diagnostics, hovers, code actions and commands. The only package that
imports pygls or lsprotocol; docs/language-server.md describes what clients see."""
