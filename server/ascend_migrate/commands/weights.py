"""`ascend-migrate weights convert SRC --model FILE:CLASS [...]`: PyTorch weights → a MindSpore .ckpt.

It RUNS code: FILE:CLASS is imported and built (like `ascend-migrate run`); the weights file itself is read
with weights_only semantics and never executes anything. Exit: 0 every parameter mapped and written, 1 a
parameter unmapped, a shape mismatch or a MindSpore parameter left unfilled (nothing written without
--partial), 2 usage error, unreadable input or missing packages.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ascend_migrate.commands.common import print_error

EXIT_CLEAN, EXIT_INCOMPLETE, EXIT_USAGE = 0, 1, 2
EXECUTES = "FILE:CLASS is imported and CLASS() is built: this runs that file's code (the weights file runs nothing)"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "weights",
        help="convert PyTorch weights (.pth/.pt/.bin/.safetensors) into a MindSpore .ckpt (runs your model file)",
        description="Convert trained PyTorch weights into a MindSpore checkpoint, renaming and reshaping parameters "
        f"for the MindSpore model. {EXECUTES}.",
    )
    actions = parser.add_subparsers(dest="weights_command", metavar="ACTION")
    convert = actions.add_parser(
        "convert",
        help="write a .ckpt from a .pth/.pt/.bin/.safetensors file (or Keras .h5/.keras)",
        description=f"Read SRC (a state dict, or a checkpoint dict holding one, loaded with weights_only=True), map every "
        f"parameter to its MindSpore name and layout, and write a .ckpt. Keras .h5/.keras weights need only --target-model: their weighted layers are matched in order with the MindSpore cells that hold parameters. {EXECUTES}. Exit: 0 written with every "
        "parameter mapped, 1 something did not map (listed; nothing written without --partial), 2 usage or input error.",
    )
    convert.add_argument("source", type=Path, metavar="SRC", help="the PyTorch weights: .pth, .pt, .bin or .safetensors; or Keras .h5/.keras")
    convert.add_argument("--model", metavar="FILE:CLASS", help="the PyTorch model the weights belong to (its code is run; required for PyTorch weights)")
    convert.add_argument("--target-model", metavar="FILE:CLASS",
                         help="the MindSpore model to convert for: its parameter names and shapes decide the map (its code is run)")
    convert.add_argument("--era", choices=("nn", "mint"), default="nn",
                         help="without --target-model: name parameters as mindspore.nn layers do (nn, the default: "
                         "gamma/beta/moving_mean/...) or as mindspore.mint layers do (mint: torch's names)")
    convert.add_argument("--map", type=Path, metavar="FILE", help="YAML or JSON rules `regex: name` applied first (null leaves a parameter out)")
    convert.add_argument("-o", "--output", type=Path, metavar="OUT.ckpt", help="where to write (default: SRC with the suffix .ckpt)")
    convert.add_argument("--print-map", action="store_true", help="print the map and stop (nothing is written)")
    convert.add_argument("--partial", action="store_true", help="write what mapped even when something did not (still exit 1)")
    convert.add_argument("--json", action="store_true", help="print the map and its problems as JSON")
    convert.set_defaults(run=run)
    parser.set_defaults(run=lambda arguments: _no_action(parser))


def _no_action(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.files import write_atomically
    from ascend_migrate.weights.convert import checkpoint_bytes, default_output, plan_conversion
    from ascend_migrate.weights.errors import WeightsError
    from ascend_migrate.weights.models import build_model
    from ascend_migrate.weights.naming import print_map, problem_lines, read_map_file
    from ascend_migrate.weights.packages import require

    output = arguments.output or default_output(arguments.source)
    if output.suffix.lower() != ".ckpt":
        print_error(f"-o {output}: a MindSpore checkpoint is written to a .ckpt file")
        return EXIT_USAGE
    keras = arguments.source.suffix.lower() in (".h5", ".keras")
    if keras and arguments.target_model is None:
        print_error(f"{arguments.source}: Keras weights are converted for a MindSpore model: give --target-model FILE:CLASS")
        return EXIT_USAGE
    if keras and arguments.map is not None:
        print_error(f"{arguments.source}: --map renames PyTorch parameters; Keras layers are matched in order with the MindSpore model's cells")
        return EXIT_USAGE
    if not keras and arguments.model is None:
        print_error(f"{arguments.source}: PyTorch weights need --model FILE:CLASS (the model they belong to)")
        return EXIT_USAGE
    try:
        rules = read_map_file(arguments.map) if arguments.map is not None else []
        if not arguments.source.is_file():
            raise WeightsError(f"{arguments.source}: no such file")
        require("mindspore", "weights convert")
        if keras:
            conversion = _keras_conversion(arguments.source, build_model(arguments.target_model))
        else:
            require("torch", "weights convert")
            torch_model = build_model(arguments.model)
            target = build_model(arguments.target_model) if arguments.target_model else None
            conversion = plan_conversion(arguments.source, torch_model, target, arguments.era, rules)
    except WeightsError as error:
        print_error(str(error))
        return EXIT_USAGE
    parameter_map = conversion.parameter_map
    if arguments.json:
        sys.stdout.write(json.dumps({"source": str(arguments.source), "output": str(output), "notes": conversion.weights.notes,
                                     **parameter_map.to_json()}, indent=2) + "\n")
    elif arguments.print_map:
        sys.stdout.write(print_map(parameter_map))
    if arguments.print_map:
        return EXIT_CLEAN if parameter_map.complete else EXIT_INCOMPLETE
    if not arguments.json:
        for note in conversion.weights.notes:
            print(f"note: {note}")
        for line in problem_lines(parameter_map):
            print(line)
    if not parameter_map.complete and not arguments.partial:
        print_error(f"nothing written: {_problem_summary(parameter_map)} (see above; --map FILE adds names, --partial writes what mapped)")
        return EXIT_INCOMPLETE
    try:
        write_atomically(output, checkpoint_bytes(conversion))
    except WeightsError as error:
        print_error(str(error))
        return EXIT_USAGE
    except OSError as error:
        print_error(f"cannot write {output}: {error.strerror or error}")
        return EXIT_USAGE
    if not arguments.json:
        print(_summary(parameter_map, arguments.source, output))
    return EXIT_CLEAN if parameter_map.complete else EXIT_INCOMPLETE


def _keras_conversion(source: Path, target):
    from ascend_migrate.weights.convert import Conversion
    from ascend_migrate.weights.keras import map_keras, read_keras

    weights, parameter_map = map_keras(read_keras(source), target)
    return Conversion(weights, parameter_map)


def _problem_summary(parameter_map) -> str:
    parts = [(len(parameter_map.unmapped), "unmapped"), (len(parameter_map.shape_mismatches), "with a different shape"),
             (len(parameter_map.missing), "MindSpore parameters unfilled")]
    return ", ".join(f"{count} {what}" for count, what in parts if count)


def _summary(parameter_map, source: Path, output: Path) -> str:
    renamed = sum(1 for entry in parameter_map.mapped if entry.source != entry.target)
    details = [f"{renamed} renamed", f"{len(parameter_map.reshaped())} reshaped", f"{len(parameter_map.cast())} with a dtype change"]
    if parameter_map.not_carried:
        details.append(f"{len(parameter_map.not_carried)} not carried")
    return f"wrote {output}: {len(parameter_map.mapped)} parameters from {source} ({', '.join(details)})"
