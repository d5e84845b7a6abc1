"""A Keras model built from layers (a functional `keras.Model(inputs, outputs)` or `keras.Sequential([...])`) →
an `nn.Cell` class with every layer built with its input size (MS255, MindSpore route; issue 21).

    inputs = keras.Input(shape=(32, 32, 3))          class ModelCell(mindspore.nn.Cell):
    x = layers.Conv2D(32, 3, activation="relu")(inputs)    def __init__(self):
    outputs = layers.Dense(10)(layers.Flatten()(x))  →          self.conv2d = ...Conv2d(3, 32, 3, ...)
    return keras.Model(inputs, outputs)                     def construct(self, inputs): ...
                                                         return ModelCell()

The sizes come from `analysis/rules/keras_layers.py`; a model with image layers transposes its NHWC input to
NCHW once. A model this rule cannot write whole (a layer or argument it does not know, a size it cannot follow,
other code between the layers) keeps its finding without a fix, and the message says what to fill in.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable

from ascend_migrate.analysis.findings import Fix, TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, FUNCTION_DEFINITION, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import IMAGE_LAYERS, Converted, Dim, NotConverted, keras_name, keras_roots, literal_shape
from ascend_migrate.analysis.rules.keras_sequence_layers import ATTENTION_CELL, ID_LAYERS, convert, support_code

FUNCTIONAL = "keras-functional-model"
SEQUENTIAL = "keras-sequential-model"
INDENT = "    "
_TO_NCHW = "(0, 3, 1, 2)"


@dataclasses.dataclass
class _Layer:
    attribute: str  # empty: a function computes the layer (no Cell attribute)
    cell: str
    target: str  # the variable the construct line assigns
    applied: str  # the construct line's right side


# (layer name, its constructor call, the output variable, the input variables in the Keras call's order)
Step = tuple[str, ast.Call, str, tuple[str, ...]]


def keras_layer_name(context: RuleContext, node: ast.expr) -> str | None:
    qualified = context.qualified_name(node)
    return keras_name(context.view.aliases.canonical(qualified)) if qualified else None


def input_shape(call: ast.Call) -> tuple[ast.expr | None, str]:
    """The `shape` of `keras.Input(...)` (node and text); an input of another dtype is not rewritten (the Cell
    converts its input to float32, keras.Input's default)."""
    if any(keyword.arg not in ("shape", "name", "batch_size") for keyword in call.keywords) or len(call.args) > 1:
        raise NotConverted("keras.Input has arguments other than shape (a dtype, sparse, a tensor): write the input handling by hand")
    node = next((keyword.value for keyword in call.keywords if keyword.arg == "shape"), call.args[0] if call.args else None)
    return node, ast.unparse(node) if node is not None else ""


def shape_of(node: ast.expr | None, text: str, images: bool) -> tuple[Dim, ...]:
    if isinstance(node, ast.Name):
        rank = 3 if images else 1  # an image is (height, width, channels); a vector's size is its last entry
        return tuple(f"{node.id}[{position - rank}]" for position in range(rank))
    return literal_shape(node, text)


def _attribute(name: str, used: set[str]) -> str:
    snake = "".join(f"_{character.lower()}" if character.isupper() else character for character in name).lstrip("_")
    snake = snake.replace("2_d", "2d").replace("1_d", "1d").replace("3_d", "3d")
    attribute, number = snake, 1
    while attribute in used:
        attribute, number = f"{snake}_{number}", number + 1
    used.add(attribute)
    return attribute


def cell_class_name(context: RuleContext, base: str) -> str:
    words = [word for word in base.split("_") if word and word not in ("build", "make", "create", "get")] or ["model"]
    name = "".join(word[:1].upper() + word[1:] for word in words) + "Cell"
    while context.lookup(name) is not None:
        name += "_"
    return name


def cell_class(name: str, indentation: str, input_name: str, layers: list[_Layer], output: str, images: bool, ids: bool) -> list[str]:
    inner, body = indentation + INDENT, indentation + 2 * INDENT
    lines = [f"{indentation}class {name}(mindspore.nn.Cell):", f"{inner}def __init__(self):", f"{body}super().__init__()"]
    lines += [f"{body}self.{layer.attribute} = {layer.cell}" for layer in layers if layer.attribute]
    lines += ["", f"{inner}def construct(self, {input_name}):"]
    if ids:
        lines.append(f"{body}{input_name} = mindspore.Tensor({input_name}, mindspore.int32)  # token ids, as Keras' Embedding casts them")
    else:
        lines.append(f"{body}{input_name} = mindspore.Tensor({input_name}, mindspore.float32)  # float32 as Keras' Input; NumPy arrays taken too")
    if images:
        lines.append(f"{body}{input_name} = mindspore.ops.transpose({input_name}, {_TO_NCHW})  # NHWC (Keras' channels_last) to NCHW")
    lines += [f"{body}{layer.target} = {layer.applied}" for layer in layers]
    lines.append(f"{body}return {output}")
    return lines


def layers_of(context: RuleContext, steps: list[Step], shape: tuple[Dim, ...], images: bool,
              line_of: Callable[[ast.AST], int] | None = None, converter: Callable[..., Converted] = convert,
              own: frozenset[str] = frozenset()) -> list[_Layer]:
    """Each step as a Cell attribute (or a function) and its construct line. `line_of`: a node's line in the
    file, for nodes not of the walked chunk (keras_module_model); `converter`: the Cell of a step, and `own` the
    names of the file's layer classes it converts too (keras_module_model)."""
    line_of = line_of or (lambda node: statement_line(context, node))
    shapes = {steps[0][3][0]: shape} if steps else {}
    used: set[str] = set()
    layers = []
    for name, call, target, sources in steps:
        unknown = [source for source in sources if source not in shapes]
        if unknown:
            raise NotConverted(f"line {line_of(call)}: `{unknown[0]}` is not an output of the layers before")
        try:
            converted = converter(name, call, tuple(shapes[source] for source in sources), images)
        except NotConverted as error:
            label = name if name in own else f"layers.{name}"
            raise NotConverted(f"line {line_of(call)}, {label}: {error}") from None
        shapes[target] = converted.shape
        attribute = _attribute(name, used) if converted.cell else ""
        layers.append(_Layer(attribute, converted.cell, target, converted.applied.format(*sources, cell=f"self.{attribute}")))
    return layers


def support_text(context: RuleContext, cells: list[str]) -> str:
    """The classes these Cell expressions need written into the program (Keras' attention) and the module does not
    define yet, followed by the blank lines PEP 8 sets after a class; empty when none."""
    needed = sorted({code for cell in cells if (code := support_code(cell)) is not None})
    if not needed or context.lookup(ATTENTION_CELL) is not None:
        return ""
    return "\n\n\n".join(needed) + "\n\n\n"


def report(context: RuleContext, pattern: str, node: ast.AST, edits: list[TextEdit] | None, reason: str | None, roots: tuple[str, ...]) -> None:
    entries = context.view.patterns.get(pattern)
    if not entries:
        return
    factory = context.factory
    entry = entries[0]
    span = factory.span(node)  # type: ignore[arg-type]
    finding = factory.finding(entry, span, "exact", api=entry.api)
    if finding is None:
        return
    if edits is not None:
        fix = Fix(title="Write the Keras model as an nn.Cell with its layers' input sizes", safe=False, edits=tuple(edits),
                  add_imports=("import mindspore",), remove_imports=roots)
        finding = dataclasses.replace(finding, fix=fix)
    elif reason is not None:
        finding = dataclasses.replace(finding, message=f"{finding.message} Not rewritten automatically: {reason}.")
    context.add(finding)


def _whole_lines(context: RuleContext, first: ast.stmt, last: ast.stmt, text: str) -> TextEdit:
    """An edit replacing the statements' whole lines (their indentation included)."""
    _, _, end_line, end_column = context.factory.span(last)
    return TextEdit(statement_line(context, first), 1, end_line, end_column, text)


def statement_line(context: RuleContext, node: ast.AST) -> int:
    """The node's line in the file (a large module's pieces number their lines from 1)."""
    return context.factory.span(node)[0]  # type: ignore[arg-type]


# --- functional: inputs = keras.Input(...); x = Layer(...)(x) ...; return keras.Model(inputs, outputs) ---------

def on_function(context: RuleContext, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    body = node.body
    start = next((index for index, statement in enumerate(body) if is_input(context, statement)), None)
    if start is None:
        return
    end = next((index for index in range(start + 1, len(body)) if _model_call(context, body[index]) is not None), None)
    if end is None:
        return
    first = body[start]
    assert isinstance(first, ast.Assign) and isinstance(first.value, ast.Call)
    input_name = first.targets[0].id  # type: ignore[attr-defined]
    edits: list[TextEdit] | None = None
    reason: str | None = None
    try:
        edits = _functional_edits(context, node, start, end, input_name)
    except NotConverted as error:
        reason = str(error)
    report(context, FUNCTIONAL, first, edits, reason, keras_roots(context, [*body[start:end + 1], *([node.returns] if node.returns else [])]))


def is_input(context: RuleContext, statement: ast.stmt) -> bool:
    return (type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name
            and type(statement.value) is ast.Call and keras_layer_name(context, statement.value.func) in ("Input", "InputLayer"))


def _model_call(context: RuleContext, statement: ast.stmt) -> ast.Call | None:
    value = statement.value if type(statement) in (ast.Return, ast.Assign) else None  # type: ignore[attr-defined]
    if type(value) is ast.Call and keras_layer_name(context, value.func) in ("Model", "Functional"):
        return value
    return None


def _functional_edits(context: RuleContext, function: ast.FunctionDef | ast.AsyncFunctionDef, start: int, end: int, input_name: str) -> list[TextEdit]:
    body = function.body
    shape_node, shape_text = input_shape(body[start].value)  # type: ignore[attr-defined]
    steps: list[Step] = []
    for statement in body[start + 1:end]:
        step = layer_step(context, statement)
        if step is None:
            raise NotConverted(f"line {statement_line(context, statement)} is not `variable = layers.Layer(...)(variable)`: write the model as a Cell by hand")
        steps.append(step)
    model = _model_call(context, body[end])
    assert model is not None
    arguments = {**dict(zip(("inputs", "outputs"), model.args, strict=False)), **{k.arg: k.value for k in model.keywords if k.arg}}
    inputs, outputs = arguments.get("inputs"), arguments.get("outputs")
    if not (type(inputs) is ast.Name and inputs.id == input_name and type(outputs) is ast.Name) or set(arguments) - {"inputs", "outputs", "name"}:
        raise NotConverted("the model does not take one input and one output by name")
    images = any(name in IMAGE_LAYERS for name, *_ in steps)
    layers = layers_of(context, steps, shape_of(shape_node, shape_text, images), images)
    if outputs.id not in {layer.target for layer in layers}:
        raise NotConverted(f"`{outputs.id}` is not made by the layers")
    first_line, first_column, _, _ = context.factory.span(body[start])
    indentation = context.factory.lines.text(first_line)[: first_column - 1]
    class_name = cell_class_name(context, function.name)
    lines = cell_class(class_name, indentation, input_name, layers, outputs.id, images, takes_ids(steps, input_name))
    last = body[end]
    made = f"{class_name}()"
    lines.append(f"{indentation}return {made}" if type(last) is ast.Return else f"{indentation}{ast.unparse(last.targets[0])} = {made}")  # type: ignore[attr-defined]
    edits = [_whole_lines(context, body[start], last, "\n".join(lines))]
    support = support_text(context, [layer.cell for layer in layers])
    if support:
        if function.col_offset:
            raise NotConverted(f"layers.MultiHeadAttention needs the class {ATTENTION_CELL} written at module level, "
                               "and the model is built in a nested function: write the model as a Cell by hand")
        line = min([statement_line(context, function), *(statement_line(context, decorator) for decorator in function.decorator_list)])
        edits.append(TextEdit(line, 1, line, 1, support))
    if function.returns is not None and keras_layer_name(context, function.returns) in ("Model", "Functional", "Sequential"):
        line, column, end_line, end_column = context.factory.span(function.returns)
        edits.append(TextEdit(line, column, end_line, end_column, "mindspore.nn.Cell"))
    return edits


def takes_ids(steps: list[Step], input_name: str, id_layers: frozenset[str] = ID_LAYERS) -> bool:
    """Whether the model's input feeds only layers of token ids (Embedding, or `id_layers` given)."""
    readers = [name for name, _, _, sources in steps if input_name in sources]
    return bool(readers) and all(name in id_layers for name in readers)


def layer_step(context: RuleContext, statement: ast.stmt, name_of: Callable[[ast.expr], str | None] | None = None) -> Step | None:
    """The step of `x = layers.Name(...)(y)`, or `(query, value)` for attention. `name_of`: a callee's Keras name,
    for nodes not of the walked chunk (keras_module_model)."""
    if type(statement) is not ast.Assign or len(statement.targets) != 1 or type(statement.targets[0]) is not ast.Name:
        return None
    value = statement.value
    if type(value) is not ast.Call or type(value.func) is not ast.Call or not value.args or value.keywords:
        return None
    name = name_of(value.func.func) if name_of is not None else keras_layer_name(context, value.func.func)
    if name is None or not all(type(argument) is ast.Name for argument in value.args):
        return None
    return name, value.func, statement.targets[0].id, tuple(argument.id for argument in value.args)  # type: ignore[attr-defined]


# --- Sequential: model = keras.Sequential([keras.Input(shape=...), layers.Conv2D(...), ...]) --------------------

def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if type(value) is not ast.Call or keras_layer_name(context, value.func) != "Sequential" or len(targets) != 1 or type(targets[0]) is not ast.Name:
        return
    target = targets[0]
    edits: list[TextEdit] | None = None
    reason: str | None = None
    try:
        edits = [_sequential_edit(context, target, value)]
    except NotConverted as error:
        reason = str(error)
    report(context, SEQUENTIAL, target, edits, reason, keras_roots(context, [value]))


def _sequential_edit(context: RuleContext, target: ast.Name, call: ast.Call) -> TextEdit:
    listed = next((keyword.value for keyword in call.keywords if keyword.arg == "layers"), call.args[0] if call.args else None)
    if type(listed) is not ast.List or not listed.elts or not all(type(element) is ast.Call for element in listed.elts):
        raise NotConverted("the layers are not given as a list in the Sequential call (model.add(...) builds it later)")
    calls: list[ast.Call] = list(listed.elts)  # type: ignore[arg-type]
    if keras_layer_name(context, calls[0].func) in ("Input", "InputLayer"):
        shape_node, shape_text = input_shape(calls[0])
        calls = calls[1:]
    else:
        shape_node = next((keyword.value for keyword in calls[0].keywords if keyword.arg == "input_shape"), None)
        if shape_node is None:
            raise NotConverted("the input size is not given (keras.Input(shape=...) or input_shape= on the first layer): "
                               "add keras.Input(shape=(...)) as the first entry, or write in_channels by hand")
        shape_text = ast.unparse(shape_node)
        first = calls[0]
        calls[0] = ast.Call(first.func, first.args, [keyword for keyword in first.keywords if keyword.arg != "input_shape"])
        ast.copy_location(calls[0], first)
    names = [keras_layer_name(context, each.func) for each in calls]
    if None in names:
        raise NotConverted("an entry of the list is not a Keras layer")
    images = any(name in IMAGE_LAYERS for name in names)
    steps: list[Step] = [(name, each, "x", ("x",)) for name, each in zip(names, calls, strict=True) if name is not None]
    layers = layers_of(context, steps, shape_of(shape_node, shape_text, images), images)
    statement_line, column, _, _ = context.factory.span(target)
    indentation = context.factory.lines.text(statement_line)[: column - 1]
    if indentation.strip():
        raise NotConverted("the Sequential call is not a statement of its own")
    class_name = cell_class_name(context, target.id)
    lines = cell_class(class_name, indentation, "x", layers, "x", images, names[0] in ID_LAYERS)
    lines.append(f"{indentation}{target.id} = {class_name}()")
    _, _, end_line, end_column = context.factory.span(call)
    return TextEdit(statement_line, 1, end_line, end_column, "\n".join(lines))


_FLAGS = (
    Example("mindspore", """
        import tensorflow as tf
        from tensorflow.keras import layers

        def build_model(num_classes):
            inputs = tf.keras.Input(shape=(28, 28, 1))  # expect: MS255
            x = layers.Conv2D(8, 3, activation="relu")(inputs)
            x = layers.Flatten()(x)
            outputs = layers.Dense(num_classes)(x)
            return tf.keras.Model(inputs, outputs)

        model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), layers.Dense(2)])  # expect: MS255
        """, codes=("MS255",)),
    Example("mindspore", """
        import keras
        from keras import layers

        def build_encoder():
            tokens = keras.Input(shape=(16,))  # expect: MS255
            x = layers.Embedding(1000, 32)(tokens)
            x = layers.MultiHeadAttention(num_heads=4, key_dim=8)(x, x)
            x = layers.LayerNormalization()(x)
            outputs = layers.GlobalAveragePooling1D()(x)
            return keras.Model(tokens, outputs)
        """, codes=("MS255",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import tensorflow as tf

        model = tf.keras.Model()
        layers_used = [tf.keras.layers.Dense(2)]
        """, codes=("MS255",)),
)

RULE = Rule(
    name="keras_model",
    frameworks=TENSORFLOW,
    matchers={FUNCTIONAL: Matcher(FUNCTION_DEFINITION, on_function), SEQUENTIAL: Matcher(ASSIGNMENT, on_assignment)},
    flags=_FLAGS,
    leaves_alone=_LEAVES_ALONE,
)
