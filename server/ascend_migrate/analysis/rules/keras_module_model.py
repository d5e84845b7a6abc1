"""A functional Keras model written at module level → an `nn.Cell` class (MS255, MindSpore route; issue 21).

    inputs = layers.Input(shape=(200,))                class ModelCell(mindspore.nn.Cell):
    x = layers.Embedding(20000, 32)(inputs)     →          ...
    outputs = layers.Dense(2)(x)                       model = ModelCell()
    model = keras.Model(inputs=inputs, outputs=outputs)

Each top-level statement is a chunk of its own, so the rule reads the statements above the `keras.Model(...)`
statement from the module's text (parsed here; names resolved in the module scope) and tells the engine so
(`RuleContext.read_earlier_lines`: an edit there walks this chunk again). The run starts at the last
`inputs = keras.Input(...)` above; every statement from there to the model must apply a Keras layer
(`x = layers.L(...)(x)`) or a Keras layer class defined above in the file (`block = Block(...)` then `x = block(x)`,
or `x = Block(...)(x)`: a Cell attribute built as the code builds it, its output size from the class's code,
`keras_own_layers.py`; the rule then reads from the class's first line too), else the finding names the line and has
no fix. The layers, their sizes and the Cell written are those of the model rewrites in `keras_model.py`.
"""

from __future__ import annotations

import ast

from ascend_migrate.analysis.findings import TextEdit
from ascend_migrate.analysis.rules.api import ASSIGNMENT, TENSORFLOW, Example, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_layers import IMAGE_LAYERS, Converted, NotConverted, keras_name, keras_roots
from ascend_migrate.analysis.rules.keras_model import (
    FUNCTIONAL,
    Step,
    cell_class,
    cell_class_name,
    input_shape,
    layer_step,
    layers_of,
    report,
    shape_of,
    support_text,
    takes_ids,
)
from ascend_migrate.analysis.rules.keras_own_layers import convert_own_layer, layer_classes
from ascend_migrate.analysis.rules.keras_sequence_layers import ID_LAYERS, convert
from ascend_migrate.analysis.symbols import dotted_parts, qualify


def _keras(context: RuleContext, node: ast.expr) -> str | None:
    """The Keras name of a node of the re-parsed text. Resolved here, not with `context.qualified_name`, which
    memoises by node identity and must see only the walked chunk's nodes."""
    dotted = dotted_parts(node)
    if dotted is None:
        return None
    qualified = qualify(context.lookup(dotted[0]), dotted[1])
    return keras_name(context.view.aliases.canonical(qualified)) if qualified else None


def _model_names(context: RuleContext, call: ast.Call) -> tuple[str, str] | None:
    """(inputs, outputs) of `keras.Model(inputs=a, outputs=b)` / `keras.Model(a, b)` with names, else None."""
    qualified = context.qualified_name(call.func)
    if qualified is None or keras_name(context.view.aliases.canonical(qualified)) not in ("Model", "Functional"):
        return None
    arguments = {**dict(zip(("inputs", "outputs"), call.args, strict=False)), **{k.arg: k.value for k in call.keywords if k.arg}}
    inputs, outputs = arguments.get("inputs"), arguments.get("outputs")
    if type(inputs) is not ast.Name or type(outputs) is not ast.Name or set(arguments) - {"inputs", "outputs", "name"}:
        return None
    return inputs.id, outputs.id


def _not_a_step(context: RuleContext, statement: ast.stmt) -> str:
    """Why a statement in the run is not a layer application, naming its line (and a class of this file)."""
    value = statement.value if type(statement) is ast.Assign else None
    called = value.func if type(value) is ast.Call else None
    if type(called) is ast.Call:
        called = called.func  # `x = Block(32)(x)`: built and applied at once
    binding = context.lookup(called.id) if type(called) is ast.Name else None
    if binding is not None and binding[0] == "class":
        return (f"line {statement.lineno}: `{called.id}` is a class of this file this rewrite does not follow (not a "  # type: ignore[union-attr]
                "direct keras.layers.Layer subclass defined above the model): write the model as a Cell that calls it in construct")
    return f"line {statement.lineno} is not `variable = layers.Layer(...)(variable)`: write the model as a Cell by hand"


def _own_steps(run: list[ast.stmt], classes: dict[str, ast.ClassDef]) -> tuple[list[ast.stmt], dict[ast.stmt, Step]]:
    """The statements of the run that build or apply a layer class of the file: `name = Block(...)` (left out of
    the steps, returned without them) and `x = name(y)` / `x = Block(...)(y)` (their steps)."""
    built: dict[str, ast.Call] = {}
    applied: dict[str, int] = {}
    steps: dict[ast.stmt, Step] = {}
    kept: list[ast.stmt] = []
    for statement in run:
        value = statement.value if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name) else None
        target = statement.targets[0].id if value is not None else ""  # type: ignore[attr-defined]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes:
            built[target] = value  # `embedding_layer = TokenAndPositionEmbedding(...)`: a Cell attribute of the model
            continue
        kept.append(statement)
        if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Name)):
            continue
        source = value.args[0].id
        if isinstance(value.func, ast.Name) and value.func.id in built:
            applied[value.func.id] = applied.get(value.func.id, 0) + 1
            construction = built[value.func.id]
            steps[statement] = (construction.func.id, construction, target, (source,))  # type: ignore[attr-defined]
        elif isinstance(value.func, ast.Call) and isinstance(value.func.func, ast.Name) and value.func.func.id in classes:
            steps[statement] = (value.func.func.id, value.func, target, (source,))
    shared = sorted(name for name, count in applied.items() if count > 1)
    if shared:
        raise NotConverted(f"`{shared[0]}` is applied more than once (one layer, shared weights): write the model as a Cell by hand")
    unused = sorted(set(built) - set(applied))
    if unused:
        raise NotConverted(f"`{unused[0]}` is built between the model's statements and not applied as `x = {unused[0]}(x)`")
    return kept, steps


def on_assignment(context: RuleContext, targets: list[ast.expr], value: ast.expr) -> None:
    if type(value) is not ast.Call or len(targets) != 1 or type(targets[0]) is not ast.Name or targets[0].col_offset:
        return  # not `name = call(...)` as a top-level statement (a model built in a function is keras_model's)
    if not context.view.patterns.get(FUNCTIONAL):
        return  # not the MindSpore route
    target = targets[0]
    line = context.factory.span(target)[0]
    names = _model_names(context, value)
    if names is None:
        return
    lines = context.factory.lines
    if lines.first_line != 1:
        return  # a piece of a large module: the statements above are not at hand
    try:
        above = ast.parse("\n".join(lines.text(number) for number in range(1, line))).body
    except SyntaxError:
        return
    input_name, output_name = names
    start = next((index for index in range(len(above) - 1, -1, -1) if _is_input(context, above[index], input_name)), None)
    if start is None:
        return
    context.read_earlier_lines(above[start].lineno)
    edits: list[TextEdit] | None = None
    reason: str | None = None
    try:
        edits = [_edit(context, above, start, target, value, input_name, output_name)]
    except NotConverted as error:
        reason = str(error)
    report(context, FUNCTIONAL, target, edits, reason, (*keras_roots(context, [value]), *_roots(context, above[start:])))


def _is_input(context: RuleContext, statement: ast.stmt, name: str) -> bool:
    return (type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name
            and statement.targets[0].id == name and type(statement.value) is ast.Call
            and _keras(context, statement.value.func) in ("Input", "InputLayer"))


def _roots(context: RuleContext, statements: list[ast.stmt]) -> tuple[str, ...]:
    """The imported names (keras, layers) the replaced statements used."""
    roots: list[str] = []
    for statement in statements:
        for node in ast.walk(statement):
            if type(node) is ast.Name and node.id not in roots:
                binding = context.lookup(node.id)
                if binding is not None and binding[0] == "import" and str(binding[1]).split(".")[0] in ("tensorflow", "keras", "tf_keras"):
                    roots.append(node.id)
    return tuple(roots)


def _edit(context: RuleContext, above: list[ast.stmt], start: int, target: ast.Name, model: ast.Call, input_name: str,
          output_name: str) -> TextEdit:
    run = above[start:]
    first = run[0]
    shape_node, shape_text = input_shape(first.value)  # type: ignore[attr-defined]
    keras = lambda node: _keras(context, node)  # noqa: E731
    classes = layer_classes(above[:start], keras)
    statements, own_steps = _own_steps(run[1:], classes)
    for name in {step[0] for step in own_steps.values()}:
        # the class's text decides the sizes: an edit there walks this chunk again
        context.read_earlier_lines(min([classes[name].lineno, *(decorator.lineno for decorator in classes[name].decorator_list)]))
    steps: list[Step] = []
    for statement in statements:
        step = own_steps.get(statement) or layer_step(context, statement, name_of=keras)
        if step is None:
            raise NotConverted(_not_a_step(context, statement))
        steps.append(step)
    id_classes: set[str] = set()

    def converter(name: str, call: ast.Call, shapes: tuple, images: bool) -> Converted:
        if name not in classes:
            return convert(name, call, shapes, images)
        if len(shapes) != 1:
            raise NotConverted("it is applied to more than one input")
        converted, ids = convert_own_layer(classes[name], call, shapes[0], keras)
        if ids:
            id_classes.add(name)
        return converted

    images = any(name in IMAGE_LAYERS for name, *_ in steps)
    layers = layers_of(context, steps, shape_of(shape_node, shape_text, images), images, line_of=lambda node: getattr(node, "lineno", 0),
                       converter=converter, own=frozenset(classes))
    if output_name not in {layer.target for layer in layers}:
        raise NotConverted(f"`{output_name}` is not made by the layers")
    name = cell_class_name(context, target.id)
    text = cell_class(name, "", input_name, layers, output_name, images, takes_ids(steps, input_name, ID_LAYERS | id_classes))
    text += ["", "", f"{target.id} = {name}()"]  # a class among module statements: blank lines as PEP 8 sets them
    _, _, end_line, end_column = context.factory.span(model)
    return TextEdit(first.lineno, 1, end_line, end_column, support_text(context, [layer.cell for layer in layers]) + "\n".join(text))


_FLAGS = (
    Example("mindspore", """
        import keras
        from keras import layers

        inputs = layers.Input(shape=(16,))
        x = layers.Embedding(1000, 32)(inputs)
        x = layers.GlobalAveragePooling1D()(x)
        outputs = layers.Dense(2, activation="softmax")(x)
        model = keras.Model(inputs=inputs, outputs=outputs)  # expect: MS255
        """, codes=("MS255",)),
)
_LEAVES_ALONE = (
    Example("mindspore", """
        import keras

        model = keras.Model()
        """, codes=("MS255",)),
)

RULE = Rule(name="keras_module_model", frameworks=TENSORFLOW, hooks={ASSIGNMENT: on_assignment}, flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
