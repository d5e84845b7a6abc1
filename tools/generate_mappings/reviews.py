"""Reviewed notes (tools/generate_mappings/reviews.yaml) for generated entries the battery cannot run side by side."""

from __future__ import annotations

from pathlib import Path

import yaml

from ascend_migrate.kb.versions import parse_range, parse_version

REVIEWS = Path(__file__).resolve().parent / "reviews.yaml"
REVIEWED_AGAINST = "2.10.0"  # the mindspore the reviews were made with; an entry whose range excludes it gets none


class ReviewError(ValueError):
    """A review that names no generated entry: the table changed, so the review needs a look."""


def apply_reviews(entries: list[dict], path: Path = REVIEWS) -> int:
    """Sets `review` on the entries reviews.yaml names (api and target); returns how many. `review` says what
    differs (or why nothing does) and who checked it, when and how."""
    if not path.exists():
        return 0
    reviews = {(item["api"], item["target"]): item["review"]
               for item in yaml.safe_load(path.read_text(encoding="utf-8"))["reviews"]}
    used = set()
    for entry in entries:
        key = (entry["api"], entry.get("target"))
        if key in reviews and parse_range(entry.get("target_versions", "*")).contains(parse_version(REVIEWED_AGAINST)):
            entry["review"] = reviews[key]
            used.add(key)
    # as corrections.py: a review whose api the reference still maps must still find its entry (a small test
    # reference without the api is no error)
    present = {entry["api"] for entry in entries}
    unused = sorted(key for key in set(reviews) - used if key[0] in present)
    if unused:
        raise ReviewError(f"{path}: no entry in range of mindspore {REVIEWED_AGAINST} for {unused[:5]}")
    return len(used)
