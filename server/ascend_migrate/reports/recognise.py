"""Whether an existing file is a report ascend-migrate wrote, by its content: a report of ours may be
replaced by a newer one; any other file is the user's and is never overwritten without being asked."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

HEAD_BYTES = 4096  # where the JSON, SARIF and HTML reports name the tool
TAIL_BYTES = 16384  # where the text report has its summary
_TEXT_SUMMARY = re.compile(rb"^\d+ findings? in \d+ of \d+ files? for (MindSpore|Ascend NPU \(torch_npu\))", re.MULTILINE)
_MARKS = {
    "json": re.compile(rb'\A\{\s*"version":\s*\d+,\s*"tool":\s*\{"name":\s*"ascend-migrate"'),
    "sarif": re.compile(rb'"driver":\s*\{\s*"name":\s*"ascend-migrate"'),
    "html": re.compile(rb'<meta name="generator" content="ascend-migrate '),
}


def is_our_report(format_name: str, path: Path) -> bool:
    """Whether the regular file at `path` (not followed if a symlink) is a `format_name` report of ours."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with open(path, "rb", opener=_no_follow) as handle:
            if format_name == "text":
                size = os.fstat(handle.fileno()).st_size
                handle.seek(max(0, size - TAIL_BYTES))
                return _TEXT_SUMMARY.search(handle.read()) is not None
            head = handle.read(HEAD_BYTES)
    except OSError:
        return False
    if format_name == "csv":
        return _is_our_csv(path.name, head)
    mark = _MARKS.get(format_name)
    return mark is not None and mark.search(head) is not None


def csv_file_names() -> tuple[str, ...]:
    from ascend_migrate.reports.csv_report import ASCEND_FILES, FINDINGS_FILE

    return (*(ascend_file.name for ascend_file in ASCEND_FILES), FINDINGS_FILE)


def _is_our_csv(name: str, head: bytes) -> bool:
    """One file of the csv report: its header row is the one that file name gets."""
    from ascend_migrate.reports.csv_report import ASCEND_FILES, FINDINGS_COLUMNS, FINDINGS_FILE, _csv_text

    columns = {ascend_file.name: ascend_file.columns for ascend_file in ASCEND_FILES}
    columns[FINDINGS_FILE] = FINDINGS_COLUMNS
    if name not in columns:
        return False
    header = _csv_text(columns[name], []).encode("utf-8")
    return head.removeprefix(b"\xef\xbb\xbf").startswith(header)


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0))
