"""`.gitignore` patterns matched as git matches them, in time linear in the pattern and the path.

A regular-expression translation of `**` (what pathspec does) backtracks exponentially: a line of twelve
`**/a` segments took 40 s for one path of a 30-deep tree, and the walk or the language server was blocked for
that long. Here a pattern is a list of path segments matched against the path's segments by dynamic
programming (each pair of positions decided once), and each segment by the two-pointer wildcard algorithm,
so no input makes a match slower than (pattern length x path length).

Git's rules, from gitignore(5): blank lines and `#` comments are skipped; trailing spaces are dropped unless
escaped with a backslash; `!` negates (the last matching line of a file wins); a trailing `/` matches
directories only; a pattern with a `/` before its end is anchored to the file's directory, otherwise it
matches a name at any depth; `**/`, `/**/` and `/**` span any number of directories; `*`, `?` and `[...]`
never match `/`. A deeper `.gitignore` decides before a shallower one.
"""

from __future__ import annotations

from dataclasses import dataclass

_ANY_DIRECTORIES = "**"


@dataclass(frozen=True, slots=True)
class GitignorePattern:
    segments: tuple[str, ...]  # "**" stands for any number of whole segments
    negated: bool
    directory_only: bool

    def matches(self, segments: list[str], is_directory: bool) -> bool:
        if self.directory_only and not is_directory:
            return False
        return _match_segments(self.segments, segments)


def parse_gitignore(lines: list[str]) -> list[GitignorePattern]:
    """The patterns of one `.gitignore` file, in order."""
    patterns = []
    for line in lines:
        pattern = _parse_line(line)
        if pattern is not None:
            patterns.append(pattern)
    return patterns


def _parse_line(line: str) -> GitignorePattern | None:
    line = _strip_trailing_spaces(line.rstrip("\r\n"))
    if not line or line.startswith("#"):
        return None
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    directory_only = line.endswith("/")
    line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    segments = [segment for segment in line.split("/") if segment]
    if not segments:
        return None
    if not anchored:
        segments.insert(0, _ANY_DIRECTORIES)  # a bare name matches at any depth
    if segments[-1] == _ANY_DIRECTORIES:
        # "dir/**" matches everything inside dir, not dir itself: at least one more segment.
        segments.append("*")
    collapsed: list[str] = []
    for segment in segments:
        if segment == _ANY_DIRECTORIES and collapsed and collapsed[-1] == _ANY_DIRECTORIES:
            continue  # "**/**" is "**": consecutive ones would only multiply the work
        collapsed.append(segment)
    return GitignorePattern(tuple(collapsed), negated, directory_only)


def _strip_trailing_spaces(line: str) -> str:
    end = len(line)
    while end > 0 and line[end - 1] == " " and not (end > 1 and line[end - 2] == "\\"):
        end -= 1
    return line[:end]


def _match_segments(pattern: tuple[str, ...], path: list[str]) -> bool:
    """Whether the segment pattern matches the whole path; `reachable[j]`: pattern[:i] can match path[:j]."""
    reachable = [True] + [False] * len(path)
    for segment in pattern:
        if segment == _ANY_DIRECTORIES:
            # Zero or more whole segments: once a position is reachable, every later one is.
            for position in range(1, len(path) + 1):
                reachable[position] = reachable[position] or reachable[position - 1]
            continue
        following = [False] * (len(path) + 1)
        for position in range(len(path)):
            if reachable[position] and match_segment(segment, path[position]):
                following[position + 1] = True
        reachable = following
        if not any(reachable):
            return False
    return reachable[len(path)]


def match_segment(pattern: str, name: str) -> bool:
    """fnmatch-style `*`, `?`, `[...]` and backslash escapes within one path segment, by the two-pointer wildcard
    algorithm: after a `*`, a mismatch moves the star's match on by one character, never further back."""
    pattern_index = name_index = 0
    star_pattern = star_name = -1
    while name_index < len(name):
        if pattern_index < len(pattern):
            character = pattern[pattern_index]
            if character == "*":
                star_pattern, star_name = pattern_index, name_index
                pattern_index += 1
                continue
            consumed = _match_one(pattern, pattern_index, name[name_index])
            if consumed:
                pattern_index += consumed
                name_index += 1
                continue
        if star_pattern < 0:
            return False
        star_name += 1
        pattern_index, name_index = star_pattern + 1, star_name
    while pattern_index < len(pattern) and pattern[pattern_index] == "*":
        pattern_index += 1
    return pattern_index == len(pattern)


def _match_one(pattern: str, index: int, character: str) -> int:
    """How many pattern characters matched `character` at `index` (0 for no match)."""
    token = pattern[index]
    if token == "?":
        return 1
    if token == "\\" and index + 1 < len(pattern):
        return 2 if pattern[index + 1] == character else 0
    if token == "[":
        end, matched = _match_class(pattern, index, character)
        if end is not None:
            return end - index if matched else 0
    return 1 if token == character else 0


def _match_class(pattern: str, index: int, character: str) -> tuple[int | None, bool]:
    """A bracket expression at `index`: (the index after it, whether it matched); (None, False) when unclosed,
    and the `[` is then an ordinary character, as in git."""
    position = index + 1
    negated = position < len(pattern) and pattern[position] in "!^"
    if negated:
        position += 1
    matched = False
    first = True
    while position < len(pattern) and (pattern[position] != "]" or first):
        first = False
        low = pattern[position]
        if low == "\\" and position + 1 < len(pattern):
            position += 1
            low = pattern[position]
        if position + 2 < len(pattern) and pattern[position + 1] == "-" and pattern[position + 2] != "]":
            high = pattern[position + 2]
            matched = matched or low <= character <= high
            position += 3
        else:
            matched = matched or low == character
            position += 1
    if position >= len(pattern):
        return None, False
    return position + 1, matched != negated


class GitignoreTree:
    """The `.gitignore` files met while walking a tree, each applying below its own directory."""

    def __init__(self) -> None:
        self._files: dict[str, list[GitignorePattern]] = {}  # directory relative to the root ("" for the root)

    def add(self, directory_relative: str, lines: list[str]) -> None:
        patterns = parse_gitignore(lines)
        if patterns:
            self._files[directory_relative] = patterns

    def ignored(self, relative: str, is_directory: bool) -> bool:
        """Whether `relative` (posix, from the root) is ignored; its parent directories were asked before it."""
        if not self._files:
            return False
        segments = relative.split("/")
        # The deepest .gitignore first: within a file the last matching line wins, and a deeper file overrides.
        for depth in range(len(segments) - 1, -1, -1):
            patterns = self._files.get("/".join(segments[:depth]))
            if patterns is None:
                continue
            below = segments[depth:]
            for pattern in reversed(patterns):
                if pattern.matches(below, is_directory):
                    return not pattern.negated
        return False
