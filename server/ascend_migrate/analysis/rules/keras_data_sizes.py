"""The sizes of a Keras model class whose `call` applies its sub-layers one after the other to its input, when the
input's shape is not in the code (MS270, MindSpore route; issue 21).

    class MyModel(Model):                                   for an input of height H, width W and channels C:
      def __init__(self):                                     self.conv1 = nn.SequentialCell([nn.Conv2d(C, 32, 3, ...), nn.ReLU()])
        self.conv1 = Conv2D(32, 3, activation='relu')         self.flatten = nn.Flatten()
        self.flatten = Flatten()                      →       self.d1 = nn.SequentialCell([nn.Dense(32 * (H - 2) * (W - 2), 128), nn.ReLU()])
        self.d1 = Dense(128, activation='relu')               self.d2 = nn.Dense(128, 10)   (fixed: 128 is stated)
        self.d2 = Dense(10)
      def call(self, x):
        return self.d2(self.d1(self.flatten(self.conv1(x))))   (or x = self.conv1(x) ... one statement each)

MindSpore's layers take their input's size when they are built; Keras infers it at the first call, from the data.
Inside the class only the sizes the layers state are written (filters, kernel sizes, strides, padding, units), so
each sub-layer's input size is computed from them in terms of the input's height H, width W and channels C (Keras'
NHWC order; `valid` padding: H - k + 1 for stride 1) with the converters the model rewrite uses (keras_layers.py).
A sub-layer whose size is then a number (a Dense after a Dense) gets its fix; one whose size needs H, W or C gets
none, and the class's MS270 finding, on the first such sub-layer, names every such Cell (and the image layers', whose
findings have no fix) with the expression to put the numbers into (the data's shape: the program feeds it, which this rule does not follow) and the NCHW layout MindSpore's
Conv2d computes in (a transpose at the top of construct, or HWC2CHW in the dataset pipeline). Anything other than a
chain of known layers applied once each leaves the class to keras_block_sizes' reasons.
"""

from __future__ import annotations

import ast
import dataclasses

from ascend_migrate.analysis.rules.api import CLASS_DEFINITION, TENSORFLOW, Example, Matcher, Rule, RuleContext
from ascend_migrate.analysis.rules.keras_block_sizes import Planned, sub_layers
from ascend_migrate.analysis.rules.keras_layers import IMAGE_LAYERS, Converted, Dim, NotConverted, keras_name
from ascend_migrate.analysis.rules.keras_sequence_layers import convert
from ascend_migrate.analysis.rules.structure_fixes import NotFixed
from ascend_migrate.taxonomy import ROUTE_MINDSPORE

INPUT_SIZE = "keras-input-size"
_BASES = frozenset({"Layer", "Model"})
_IMAGE_INPUT: tuple[Dim, ...] = ("H", "W", "C")  # Keras' (height, width, channels), batch left out
_VECTOR_INPUT: tuple[Dim, ...] = ("F",)  # the input's last size
_PLACEHOLDERS = frozenset({"H", "W", "C", "F"})
_NOT_FIXED_ELSEWHERE = IMAGE_LAYERS | {"BatchNormalization"}
_BUILT_HERE = frozenset({"Dense", "LayerNormalization"})  # sized layers whose findings read the plan (keras_layer_calls)


def _keras(context: RuleContext, node: ast.expr) -> str | None:
    qualified = context.qualified_name(node)
    return keras_name(context.view.aliases.canonical(qualified)) if qualified else None


def _chain(call: ast.FunctionDef) -> list[str] | None:
    """The attribute names `call` applies in order, each to the previous one's output, starting from its one input;
    None for any other body."""
    arguments = call.args
    if len(arguments.args) != 2 or arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.posonlyargs:
        return None
    current = arguments.args[1].arg
    applied: list[str] = []

    def unwrap(node: ast.expr) -> bool:
        """Append the layers of `self.a(self.b(current))` innermost first."""
        if type(node) is ast.Name:
            return node.id == current
        if (type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name
                and node.func.value.id == "self" and len(node.args) == 1 and not node.keywords):
            if not unwrap(node.args[0]):
                return False
            applied.append(node.func.attr)
            return True
        return False

    body = call.body[1:] if call.body and type(call.body[0]) is ast.Expr and type(call.body[0].value) is ast.Constant else call.body
    for position, statement in enumerate(body):
        last = position == len(body) - 1
        if last and type(statement) is ast.Return and statement.value is not None:
            return applied if unwrap(statement.value) and applied else None
        if not (type(statement) is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name):
            return None
        if not unwrap(statement.value):
            return None
        current = statement.targets[0].id
    return None


def _placeholders(text: str) -> bool:
    return any(type(node) is ast.Name and node.id in _PLACEHOLDERS for node in ast.walk(ast.parse(text)))


def on_class(context: RuleContext, node: ast.ClassDef) -> None:
    if context.route != ROUTE_MINDSPORE or not any(_keras(context, base) in _BASES for base in node.bases):
        return
    methods = {statement.name: statement for statement in node.body if isinstance(statement, ast.FunctionDef)}
    initializer, call = methods.get("__init__"), methods.get("call")
    if initializer is None or call is None:
        return
    if _PLACEHOLDERS & {name.id for name in ast.walk(initializer) if type(name) is ast.Name}:
        return  # the constructor uses a name the expressions below would read as the input's size
    order = _chain(call)
    layers = sub_layers(initializer, lambda callee: _keras(context, callee))
    if order is None or len(set(order)) != len(order) or any(attribute not in layers or layers[attribute][0] == "Sequential" for attribute in order):
        return
    first = layers[order[0]][0]
    shape, images = (_IMAGE_INPUT, True) if first in IMAGE_LAYERS else (_VECTOR_INPUT, False)
    cells: list[tuple[str, str, ast.Call, Converted]] = []
    for attribute in order:
        name, built, _ = layers[attribute]
        try:
            converted = convert(name, built, (shape,), images)
        except NotConverted:
            return  # a layer the converters do not know, or one applied to what it cannot take: not this rule's shape
        cells.append((attribute, name, built, converted))
        shape = converted.shape
    unknown = [(attribute, name, built, converted) for attribute, name, built, converted in cells if _placeholders(converted.cell)]
    if not unknown:
        return
    span = context.factory.span
    # Written out: the layers whose size needs the input's, and the image layers, whose findings carry no fix.
    written = "; ".join(f"self.{attribute} = {converted.cell}" for attribute, name, _, converted in cells
                        if _placeholders(converted.cell) or name in _NOT_FIXED_ELSEWHERE)
    letters = "height H, width W and channels C" if images else "last size F"
    for _, name, built, converted in cells:
        if name not in _BUILT_HERE:
            continue
        if _placeholders(converted.cell):
            context.planned[span(built)] = NotFixed(
                f"call()'s input, whose shape the code does not state, decides its size: it is {converted.cell} for an "
                f"input of {letters} (MS270 on line {span(unknown[0][2])[0]} names every such layer)")
        else:
            context.planned[span(built)] = Planned(span(built), converted.cell, f"Replace with `{converted.cell.split('(', 1)[0]}(...)` with its input size")
    entries = context.view.patterns.get(INPUT_SIZE)
    finding = context.factory.finding(entries[0], span(unknown[0][2]), "inferred", api=entries[0].api) if entries else None
    if finding is None:
        return
    layout = (" MindSpore's Conv2d and pooling compute in NCHW: transpose the input at the top of construct "
              "(x = x.transpose(0, 3, 1, 2)) or use HWC2CHW in the dataset pipeline; Flatten then orders C*H*W, not "
              "Keras' H*W*C (the same size)." if images else "")
    message = (f"{finding.message} Here call() applies {', '.join(f'self.{attribute}' for attribute in order)} to its input, "
               f"whose shape the code does not state (Keras takes it from the data at the first call): for an input of "
               f"{letters}, {written}. Put in the numbers of the arrays the model is fed.{layout}")
    context.add(dataclasses.replace(finding, message=message))


_FLAGS = (
    Example("mindspore", """
        import tensorflow as tf
        from tensorflow.keras.layers import Conv2D, Dense, Flatten

        class MyModel(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.conv1 = Conv2D(32, 3, activation="relu")  # expect: MS270
                self.flatten = Flatten()
                self.d1 = Dense(128, activation="relu")
                self.d2 = Dense(10)

            def call(self, x):
                x = self.conv1(x)
                x = self.flatten(x)
                x = self.d1(x)
                return self.d2(x)
        """, codes=("MS270",)),
)

_LEAVES_ALONE = (
    Example("mindspore", """
        import tensorflow as tf

        class Block(tf.keras.layers.Layer):
            def __init__(self, size):
                super().__init__()
                self.dense = tf.keras.layers.Dense(size)
                self.norm = tf.keras.layers.LayerNormalization()

            def call(self, x):
                return self.norm(x + self.dense(x))
        """, codes=("MS270",)),
)

RULE = Rule(name="keras_data_sizes", frameworks=TENSORFLOW, matchers={INPUT_SIZE: Matcher(CLASS_DEFINITION, on_class)}, flags=_FLAGS, leaves_alone=_LEAVES_ALONE)
