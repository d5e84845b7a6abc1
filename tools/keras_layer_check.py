"""Runs each Keras layer the model rewrites convert and the MindSpore Cell they write for it side by side.

The Cell is the one the fix writes (`analysis/rules/keras_sequence_layers.convert` on the same constructor source;
a Cell class the fix writes into the program, Keras' attention, is executed from the text it writes), its weights
are the Keras layer's, copied over (Keras' (in, heads, size) kernels reshaped and transposed into MindSpore's
(out, in)); both get the same input and the outputs are compared (inference mode). TensorFlow and
MindSpore need different numpy releases, so each side runs in its own venv:

    /tmp/ascend-migrate-tensorflow/venv/bin/python -m tools.keras_layer_check keras --output /tmp/keras_layers.npz
    PYTHONPATH=server /work/kbvenv/bin/python -m tools.keras_layer_check mindspore /tmp/keras_layers.npz \
        --output mappings/verification/keras_layers_numeric.yaml

The record says per layer `agree` (every output within 1e-5) or `differ` with the largest difference; CI stage 39
runs both sides and fails when the record it gets differs from the committed one.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

TOLERANCE = 1e-5
ATTENTION_CELL = "KerasMultiHeadAttention"  # keras_sequence_layers.ATTENTION_CELL (this module loads without the package)
# (Keras constructor as the code writes it, input shapes with the batch, "ids" or "float" inputs)
CASES = (
    ("layers.Embedding(input_dim=50, output_dim=8)", ((3, 6),), "ids"),
    ("layers.Embedding(50, 8, mask_zero=False)", ((3, 6),), "ids"),
    ("layers.LayerNormalization(epsilon=1e-6)", ((3, 5, 8),), "float"),
    ("layers.LayerNormalization()", ((3, 5, 8),), "float"),
    ("layers.MultiHeadAttention(num_heads=2, key_dim=4)", ((3, 5, 8), (3, 5, 8)), "float"),
    ("layers.MultiHeadAttention(num_heads=4, key_dim=2, use_bias=False)", ((3, 5, 8), (3, 7, 8)), "float"),
    ("layers.MultiHeadAttention(num_heads=2, key_dim=4)", ((3, 5, 8), (3, 7, 6)), "float"),
    ("layers.MultiHeadAttention(num_heads=2, key_dim=4)", ((3, 5, 8), (3, 7, 6), (3, 7, 6)), "float"),
    ("layers.GlobalAveragePooling1D()", ((3, 5, 8),), "float"),
    # num_heads * key_dim is not the query's size: the Cell written into the program (fixes/templates/keras_attention.py)
    ("layers.MultiHeadAttention(num_heads=2, key_dim=8)", ((3, 5, 8), (3, 5, 8)), "float"),
    ("layers.MultiHeadAttention(num_heads=3, key_dim=4, value_dim=5)", ((3, 5, 8), (3, 7, 6)), "float"),
    ("layers.MultiHeadAttention(num_heads=2, key_dim=3, use_bias=False)", ((3, 5, 8), (3, 7, 6), (3, 7, 4)), "float"),
    ("layers.MultiHeadAttention(num_heads=2, key_dim=8, dropout=0.1)", ((3, 5, 8), (3, 5, 8)), "float"),
)
# keras.ops calls whose fix renames them: (the call with its inputs named input_0, ...; input shapes; kind). The
# MindSpore side runs the text the engine's fix writes for the call.
FUNCTIONS = (
    ("keras.ops.arange(start=0, stop=7, step=2)", (), "float"),
    ("keras.ops.arange(5)", (), "float"),
    ("keras.ops.arange(start=1, stop=input_0.shape[-1])", ((2, 6),), "float"),
    ("keras.ops.shape(input_0)[-1]", ((2, 6),), "float"),
    ("keras.ops.convert_to_tensor(input_0)", ((2, 6),), "float"),
    ("keras.ops.convert_to_tensor(x=input_0)", ((2, 6),), "float"),
)


def _inputs(numpy, index: int, cases: tuple = CASES) -> list:
    shapes, kind = cases[index][1], cases[index][2]
    generator = numpy.random.default_rng(index)
    if kind == "ids":
        return [generator.integers(0, 50, size=shape).astype("int32") for shape in shapes]
    return [generator.normal(size=shape).astype("float32") for shape in shapes]


def run_keras(output: Path) -> None:
    import keras
    import numpy

    arrays = {}
    for index, (source, _, _) in enumerate(CASES):
        layer = eval(source, {"layers": keras.layers})  # the constructor text of the case table above
        inputs = _inputs(numpy, index)
        result = layer(*inputs)
        arrays[f"{index}/output"] = numpy.asarray(result)
        for weight in layer.weights:
            arrays[f"{index}/weight/{weight.path.split('/', 1)[1]}"] = numpy.asarray(weight)
    for index, (source, _, _) in enumerate(FUNCTIONS):
        inputs = {f"input_{position}": value for position, value in enumerate(_inputs(numpy, index, FUNCTIONS))}
        arrays[f"function/{index}/output"] = numpy.asarray(eval(source, {"keras": keras, **inputs}))  # the table above
    numpy.savez(output, **arrays)


def _attention_weights(weights: dict, numpy) -> dict:
    """Keras' query/key/value kernels (in, heads, size) and output kernel (heads, size, out) as MindSpore's."""
    def projection(name: str):
        kernel = weights[f"{name}/kernel"]
        return kernel.reshape(kernel.shape[0], -1).T

    copied = {}
    if projection("query").shape == projection("key").shape == projection("value").shape:
        copied["in_proj_weight"] = numpy.concatenate([projection(name) for name in ("query", "key", "value")])
    else:
        for name, short in (("query", "q"), ("key", "k"), ("value", "v")):
            copied[f"{short}_proj_weight"] = projection(name)
    if "query/bias" in weights:
        copied["in_proj_bias"] = numpy.concatenate([weights[f"{name}/bias"].reshape(-1) for name in ("query", "key", "value")])
        copied["out_proj.bias"] = weights["attention_output/bias"]
    output_kernel = weights["attention_output/kernel"]
    copied["out_proj.weight"] = output_kernel.reshape(-1, output_kernel.shape[-1]).T
    return copied


def _keras_attention_weights(weights: dict) -> dict:
    """Keras' (in, heads, size) kernels and (heads, size) biases as the Dense layers of the written Cell."""
    copied = {}
    for name in ("query", "key", "value"):
        kernel = weights[f"{name}/kernel"]
        copied[f"{name}_dense.weight"] = kernel.reshape(kernel.shape[0], -1).T
        if f"{name}/bias" in weights:
            copied[f"{name}_dense.bias"] = weights[f"{name}/bias"].reshape(-1)
    output_kernel = weights["attention_output/kernel"]
    copied["output_dense.weight"] = output_kernel.reshape(-1, output_kernel.shape[-1]).T
    if "attention_output/bias" in weights:
        copied["output_dense.bias"] = weights["attention_output/bias"]
    return copied


def _cell_weights(name: str, cell: str, weights: dict, numpy) -> dict:
    if name == "Embedding":
        return {"embedding_table": weights["embeddings"]}
    if cell.startswith(ATTENTION_CELL + "("):
        return _keras_attention_weights(weights)
    if name == "MultiHeadAttention":
        return _attention_weights(weights, numpy)
    return dict(weights)  # LayerNormalization: gamma, beta by the same names


def _fixed_call(source: str) -> str:
    """The text `ascend-migrate fix --unsafe --target mindspore` writes for the call `source`."""
    from ascend_migrate.analysis.engine import analyze_file
    from ascend_migrate.config import Settings
    from ascend_migrate.fixes import fix_all

    program = f"import keras\nresult = {source}\n"
    fixed = fix_all(program, analyze_file(program, "check.py", Settings(target="mindspore")).findings, unsafe=True).text
    return next(line for line in fixed.splitlines() if line.startswith("result = ")).removeprefix("result = ")


def _verdict(numpy, result, expected) -> str:
    if result.shape != expected.shape:
        return f"differ: output shape {result.shape}, Keras {expected.shape}"
    difference = float(numpy.max(numpy.abs(result.astype("float64") - expected))) if result.size else 0.0
    return "agree" if difference <= TOLERANCE else f"differ: largest difference {difference:.2g}"


def run_mindspore(recorded: Path, output: Path) -> None:
    import mindspore
    import numpy

    from ascend_migrate.analysis.rules.keras_sequence_layers import convert, support_code

    arrays = numpy.load(recorded)
    lines = ["# Keras layers and the Cells the model rewrites write for them, run side by side with the Keras weights",
             "# copied (tools/keras_layer_check.py: tensorflow 2.21.0 / keras 3.15.1 and mindspore 2.10.0 on CPU).",
             f"# agree: every output within {TOLERANCE}.", "layers:"]
    for index, (source, shapes, _) in enumerate(CASES):
        call = ast.parse(source, mode="eval").body
        assert isinstance(call, ast.Call)
        name = ast.unparse(call.func).rsplit(".", 1)[-1]
        converted = convert(name, call, tuple(tuple(shape[1:]) for shape in shapes), False)
        namespace: dict = {"mindspore": mindspore}
        support = support_code(converted.cell)
        if support is not None:
            exec(support, namespace)  # the class text the fix writes into the program
        cell = eval(converted.cell, namespace) if converted.cell else None  # the text the fix writes
        prefix = f"{index}/weight/"
        weights = {key[len(prefix):]: arrays[key] for key in arrays.files if key.startswith(prefix)}
        if cell is not None:
            cell.set_train(False)
            parameters = {parameter.name: parameter for parameter in cell.get_parameters()}
            for parameter_name, value in _cell_weights(name, converted.cell, weights, numpy).items():
                parameters[parameter_name].set_data(mindspore.Tensor(value))
        inputs = [mindspore.Tensor(array) for array in _inputs(numpy, index)]
        namespace.update({"cell": cell, **{f"input_{position}": value for position, value in enumerate(inputs)}})
        expression = converted.applied.format(*(f"input_{position}" for position in range(len(inputs))), cell="cell")
        result = eval(expression, namespace).asnumpy()
        verdict = _verdict(numpy, result, arrays[f"{index}/output"])
        lines += [f"- keras: {json.dumps(source)}", f"  inputs: {[list(shape) for shape in shapes]}",
                  f"  mindspore: {json.dumps(converted.cell)}", f"  applied: {json.dumps(expression)}", f"  result: {json.dumps(verdict)}"]
    lines.append("functions:")
    for index, (source, shapes, _) in enumerate(FUNCTIONS):
        written = _fixed_call(source)
        inputs = {f"input_{position}": mindspore.Tensor(value) for position, value in enumerate(_inputs(numpy, index, FUNCTIONS))}
        try:
            result = numpy.asarray(eval(written, {"mindspore": mindspore, **inputs}))  # the text the fix writes
            verdict = _verdict(numpy, result, arrays[f"function/{index}/output"])
        except (TypeError, ValueError, RuntimeError) as error:
            verdict = f"differ: raised {type(error).__name__}"
        lines += [f"- keras: {json.dumps(source)}", f"  inputs: {[list(shape) for shape in shapes]}",
                  f"  mindspore: {json.dumps(written)}", f"  result: {json.dumps(verdict)}"]
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sides = parser.add_subparsers(dest="side", required=True)
    keras_side = sides.add_parser("keras", help="run the Keras layers (tensorflow venv)")
    keras_side.add_argument("--output", type=Path, required=True)
    mindspore_side = sides.add_parser("mindspore", help="run the Cells and compare (mindspore venv)")
    mindspore_side.add_argument("recorded", type=Path)
    mindspore_side.add_argument("--output", type=Path, required=True)
    arguments = parser.parse_args(argv)
    if arguments.side == "keras":
        run_keras(arguments.output)
    else:
        run_mindspore(arguments.recorded, arguments.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
