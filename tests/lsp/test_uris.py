"""file: URIs and paths: byte-exact both ways, and the same text as pygls gives for UTF-8 names."""

from __future__ import annotations

import os

from hypothesis import given, strategies
from pygls.uris import from_fs_path

from ascend_migrate.lsp.uris import path_of_uri, uri_of_path

# Any file name Linux allows: every byte but NUL and "/".
FILE_NAMES = strategies.binary(min_size=1, max_size=40).filter(lambda name: b"\0" not in name and b"/" not in name and name not in (b".", b".."))


@given(FILE_NAMES)
def test_a_path_survives_the_round_trip_through_its_uri_byte_for_byte(name: bytes):
    path = os.fsdecode(b"/home/user/project/" + name)
    uri = uri_of_path(path)
    assert uri.isascii() and uri.startswith("file:///home/user/project/")
    assert os.fsencode(path_of_uri(uri)) == b"/home/user/project/" + name


def test_a_name_that_is_not_utf8_is_percent_encoded_byte_by_byte():
    assert uri_of_path(os.fsdecode(b"/srv/caf\xe9.py")) == "file:///srv/caf%E9.py"
    assert path_of_uri("file:///srv/caf%E9.py") == os.fsdecode(b"/srv/caf\xe9.py")
    assert path_of_uri("file:///srv/caf%e9.py") == os.fsdecode(b"/srv/caf\xe9.py")


def test_utf8_names_give_the_uri_pygls_gives():
    for path in ("/srv/café/模型.py", "/srv/a b#c%d?e;f@g+h.py", "/srv/train.py"):
        assert uri_of_path(path) == from_fs_path(path)
        assert path_of_uri(uri_of_path(path)) == path


def test_what_is_not_a_local_file_path():
    assert path_of_uri("untitled:Untitled-1") is None
    assert path_of_uri("https://example.com/a.py") is None
    assert path_of_uri("file://localhost/srv/a.py") == "/srv/a.py"
    assert path_of_uri("file://server/share/a.py") == "//server/share/a.py"
