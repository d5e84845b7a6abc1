"""What the TensorFlow-against-MindSpore checks share: one side per venv (the two frameworks need different numpy
releases), run by a `run --side S --output PATH` command; the error text a refused call is recorded with; and the
seeding of a side's random generators. Used by tools/tensorflow_battery.py and tools/tensorflow_page_check.py."""

from __future__ import annotations

import argparse
from pathlib import Path

SIDES = ("tensorflow", "mindspore")
SEED = 20261202  # any fixed number: a case that draws random numbers draws the same ones in every run


def command_line(description: str) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    """The parser with its `run` command (`--side`, `--output`); the caller adds its own commands to the second value."""
    parser = argparse.ArgumentParser(description=description)
    commands = parser.add_subparsers(dest="command", required=True)
    running = commands.add_parser("run", help="run one side (in a venv that has its framework)")
    running.add_argument("--side", choices=SIDES, required=True)
    running.add_argument("--output", type=Path, required=True)
    return parser, commands


def error_text(error: Exception, limit: int, preferred: tuple[str, ...] = ()) -> str:
    """`Type: message` with the message's first line that holds a letter (one holding a `preferred` marker first),
    cut to `limit` characters: the frameworks' errors run to many lines of C++ context."""
    lines = [line.strip() for line in str(error).splitlines() if any(character.isalpha() for character in line)]
    chosen = next((line for line in lines if any(marker in line for marker in preferred)), "") or (lines[0] if lines else "")
    return f"{type(error).__name__}: {chosen[:limit]}"


def seed(side: str) -> None:
    """Seed the generators the side's random initializers draw from: the same draws in every run of this side. The two
    sides still draw different numbers (Keras' generator and MindSpore's are different algorithms), so a comparison of
    random draws stays one of statistics, within a tolerance; seeded, its outcome no longer changes between runs."""
    import random

    import numpy

    random.seed(SEED)
    numpy.random.seed(SEED)
    if side == "tensorflow":
        import keras

        keras.utils.set_random_seed(SEED)  # Python, numpy and the backend's (TensorFlow's) generators
    # MindSpore's initializers take their seed from numpy's global generator (mindspore/common/initializer.py
    # `_numpy_seed`, 2.10.0). mindspore.set_seed is not called: it also reseeds mindspore.dataset, whose random
    # transforms later cases count on as they are (random_rotation fill: 3 pixels, 12 after set_seed)
