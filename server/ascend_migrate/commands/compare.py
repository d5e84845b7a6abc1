"""`ascend-migrate compare`: prove a MindSpore port computes what the PyTorch model computed.

- `compare --torch FILE:CLASS --mindspore FILE:CLASS [--weights SRC] --input SHAPE|FILE.npy [--grad]`: both
  models RUN (their files are imported) on the same converted weights and inputs in eval mode; outputs, each
  layer (forward hooks) and with --grad the gradients of the output's sum are compared.
- `compare A B`: two checkpoints (.pth/.pt/.bin/.safetensors/.ckpt, names mapped as `weights convert` maps them)
  or two .npy arrays.
Exit: 0 the same within tolerance, 1 different (or the weights did not map), 2 usage or input error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ascend_migrate.commands.common import print_error

EXIT_SAME, EXIT_DIFFERENT, EXIT_USAGE = 0, 1, 2


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="compare a PyTorch model with its MindSpore port, or two checkpoints, or two .npy arrays (runs your model files)",
        description="Compare the PyTorch model and its MindSpore port on the same converted weights and inputs (eval "
        "mode): outputs, every layer through forward hooks (naming the first that diverges), gradients with --grad. "
        "--torch and --mindspore import and build FILE:CLASS: this runs those files' code. Or compare two checkpoints "
        "(A.pth B.ckpt) or two saved arrays (a.npy b.npy). Exit: 0 the same within tolerance, 1 different, 2 usage or input error.",
    )
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="two checkpoints or two .npy files to compare directly")
    parser.add_argument("--torch", metavar="FILE:CLASS", help="the PyTorch model (its file is run)")
    parser.add_argument("--mindspore", metavar="FILE:CLASS", help="the MindSpore model (its file is run)")
    parser.add_argument("--weights", type=Path, metavar="SRC", help="PyTorch weights for both (default: the PyTorch model's own initial weights)")
    parser.add_argument("--input", action="append", default=[], metavar="SHAPE|FILE.npy",
                        help="an input: a shape (8,3,224,224: float32 from N(0,1), seed 0) or a .npy file; once per forward argument")
    parser.add_argument("--grad", action="store_true", help="also compare the gradients of the first output's sum")
    parser.add_argument("--map", type=Path, metavar="FILE", help="YAML or JSON rules `regex: name`, as for `weights convert`")
    parser.add_argument("--atol", type=_non_negative, default=1e-4, metavar="X", help="absolute tolerance (default 1e-4)")
    parser.add_argument("--rtol", type=_non_negative, default=0.0, metavar="X", help="tolerance relative to max|PyTorch| (default 0)")
    parser.add_argument("--format", choices=("text", "json", "html"), default="text")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the result here")
    parser.set_defaults(run=run)


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.files import write_atomically
    from ascend_migrate.weights import render
    from ascend_migrate.weights.compare import compare_files, compare_models
    from ascend_migrate.weights.errors import WeightsError
    from ascend_migrate.weights.naming import read_map_file
    from ascend_migrate.weights.numbers import Tolerance

    models = arguments.torch is not None or arguments.mindspore is not None
    if models == bool(arguments.files) or (models and None in (arguments.torch, arguments.mindspore)) or (arguments.files and len(arguments.files) != 2):
        print_error("compare takes either --torch FILE:CLASS and --mindspore FILE:CLASS, or two files (A.pth B.ckpt, a.npy b.npy)")
        return EXIT_USAGE
    tolerance = Tolerance(arguments.atol, arguments.rtol)
    try:
        rules = read_map_file(arguments.map) if arguments.map is not None else []
        if models:
            comparison = compare_models(arguments.torch, arguments.mindspore, arguments.weights, arguments.input, tolerance, rules, arguments.grad)
        else:
            comparison = compare_files(arguments.files[0], arguments.files[1], tolerance, rules)
    except WeightsError as error:
        print_error(str(error))
        return EXIT_USAGE
    text = {"text": render.to_text, "json": render.to_json, "html": render.to_html}[arguments.format](comparison)
    try:
        if arguments.output is None:
            sys.stdout.write(text)
        else:
            write_atomically(arguments.output, text.encode("utf-8"))
    except OSError as error:
        print_error(f"cannot write {arguments.output}: {error.strerror or error}")
        return EXIT_USAGE
    return EXIT_SAME if comparison.passed else EXIT_DIFFERENT
