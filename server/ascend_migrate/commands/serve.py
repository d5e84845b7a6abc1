"""`ascend-migrate serve`: the language server, on stdio (default) or TCP (for debugging)."""

from __future__ import annotations

import argparse
from pathlib import Path

LOG_LEVELS = ("error", "warning", "info", "debug")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the language server (LSP on stdio; editors start this)",
        description="Run the ascend-migrate language server. Editors start it with stdio; --tcp is for debugging.",
    )
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="speak LSP on stdin/stdout (the default)")
    transport.add_argument("--tcp", metavar="HOST:PORT",
                           help="listen for one client on a loopback HOST:PORT instead (127.0.0.1 or ::1); the client "
                                "must send the token from --token-file as initializationOptions.token")
    parser.add_argument("--token-file", metavar="FILE", type=Path,
                        help="with --tcp: where to write the token, mode 0600 (default: $XDG_RUNTIME_DIR/ascend-migrate/"
                             "serve-tcp-PORT.token, else under the user's cache directory)")
    parser.add_argument("--log-level", choices=LOG_LEVELS, default="info", help="what to log to stderr and the client's log (default info)")
    parser.set_defaults(run=run)


LOOPBACK_NAMES = ("localhost",)


def _address(text: str) -> tuple[str, int] | None:
    host, separator, port = text.rpartition(":")
    if not separator or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def _is_loopback(host: str) -> bool:
    """Only this machine's own interface: anyone on the network could otherwise reach the server."""
    import ipaddress

    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.commands.common import print_error

    address = None
    if arguments.tcp is not None:
        address = _address(arguments.tcp)
        if address is None:
            print_error(f"--tcp expects HOST:PORT (for example 127.0.0.1:2087), got {arguments.tcp!r}")
            return 2
        if not _is_loopback(address[0]):
            print_error(f"--tcp listens on the loopback interface only (127.0.0.1, ::1 or localhost), got {address[0]!r}")
            return 2
    elif arguments.token_file is not None:
        print_error("--token-file goes with --tcp")
        return 2

    from ascend_migrate import generated_code_cache

    # Before lsprotocol is imported: its classes' generated methods are most of the time to `initialize`.
    code_cache = generated_code_cache.install()
    from ascend_migrate.lsp import logs
    from ascend_migrate.lsp.application import create_server
    from ascend_migrate.lsp.transport import exit_process, on_exit

    logs.configure(arguments.log_level)
    server = create_server()
    code_cache.save()  # now, for a server that is killed rather than shut down; again at exit for the rest
    if address is not None:
        from ascend_migrate.lsp.tcp_token import TokenFileError, default_token_file, remove_token_file, write_token_file

        token_file = arguments.token_file or default_token_file(address[1])
        try:
            token = write_token_file(token_file)
        except TokenFileError as error:
            print_error(str(error))
            return 2
        on_exit(lambda: remove_token_file(token_file, token))  # `exit` ends the process at once
        server.start_tcp(*address, token=token, token_file=str(token_file))
    else:
        server.start_io()
    # The client closed the connection. Threads still running (a scan) must not keep the process alive.
    code_cache.save()
    exit_process(0 if server.shutdown_requested else 1)
