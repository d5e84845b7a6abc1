"""The one error of the weights room: a message that says what went wrong and where, shown without a traceback."""

from __future__ import annotations


class WeightsError(Exception):
    """A file, a model or a map that cannot be used; the message names it."""


class MissingPackages(WeightsError):
    """torch, mindspore, numpy or safetensors is not installed; the message says what to install."""
