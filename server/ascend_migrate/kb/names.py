"""The names users type for an API (`nn.Conv2d`, `Conv2d`, `tf.keras.layers.Dense`), resolved to the entries.

The tables spell every API by its real module path (`torch.nn.Conv2d`, `tensorflow.keras.layers.Dense`). People
type the names their code uses: an import alias, a short name, a tail of the path. `kb.lookup.find` (behind
`kb lookup` and the editor's look-up command) asks `typed_name_entries` when the name as typed has no entry,
and `close_names` says what was probably meant when nothing matches at all.
"""

from __future__ import annotations

import difflib

# The import aliases of the libraries' own documentation and of nearly every project (`import torch.nn as nn`,
# `import torch.nn.functional as F`, `import tensorflow as tf`, `import mindspore as ms`, `import numpy as np`).
IMPORT_ALIASES = {
    "nn.": "torch.nn.",
    "F.": "torch.nn.functional.",
    "optim.": "torch.optim.",
    "dist.": "torch.distributed.",
    "tf.": "tensorflow.",
    "ms.": "mindspore.",
    "np.": "numpy.",
}
SUGGESTIONS = 5


def expand_alias(name: str) -> str:
    """`name` with a leading import alias spelt out (`nn.Conv2d` → `torch.nn.Conv2d`), else `name`."""
    for alias, module in IMPORT_ALIASES.items():
        if name.startswith(alias):
            return module + name[len(alias):]
    return name


def typed_name_entries(entries, name: str, prefix: bool) -> list:
    """The entries for a name as users type it: with its import alias spelt out, else as the tail of a path
    (`Conv2d`, `layers.Dense`; with `prefix`, the start of a tail: `Conv` finds `torch.nn.Conv2d`)."""
    expanded = expand_alias(name)
    if expanded != name:
        found = [entry for entry in entries if (entry.api.startswith(expanded) if prefix else entry.api == expanded)]
        if found:
            return found
    tail = "." + name
    if prefix:
        return [entry for entry in entries if tail in entry.api]
    return [entry for entry in entries if entry.api.endswith(tail)]


def close_names(entries, name: str) -> list[str]:
    """Up to five api names close to `name`: the same last part first (`tf.keras.layers.Dense` →
    tensorflow.compat.v1.layers.Dense), then close whole names, then close last parts (a misspelt `Conv2D`)."""
    apis = sorted({entry.api for entry in entries})
    expanded = expand_alias(name.strip().rstrip("*."))
    tails: dict[str, list[str]] = {}
    for api in apis:
        tails.setdefault(api.rsplit(".", 1)[-1].lower(), []).append(api)
    last = expanded.rsplit(".", 1)[-1].lower()
    close = list(tails.get(last, []))
    close += difflib.get_close_matches(expanded, apis, n=SUGGESTIONS, cutoff=0.8)
    for tail in difflib.get_close_matches(last, list(tails), n=SUGGESTIONS, cutoff=0.75):
        close += tails[tail]
    return list(dict.fromkeys(close))[:SUGGESTIONS]
