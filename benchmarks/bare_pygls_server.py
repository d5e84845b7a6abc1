"""A pygls 2 language server with no features at all: the floor for `initialize` of any pygls server here."""

from pygls.lsp.server import LanguageServer

if __name__ == "__main__":
    LanguageServer("bare-pygls", "1").start_io()
