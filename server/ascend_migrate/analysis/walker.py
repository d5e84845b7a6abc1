"""The one pass over a chunk's syntax tree: scopes, name resolution and local types, feeding every rule family.

Each node is visited once. Names are resolved through the scope chain (function scopes, then the module's
bindings); the outermost attribute chain that resolves through an import is one reference (`torch.nn.Linear`,
never also `torch.nn`). Anything else with an attribute is a method or attribute on a receiver whose type
the walker infers from local assignments, annotations and calls.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from ascend_migrate.analysis import numpy_values
from ascend_migrate.analysis.call_sites import STARRED
from ascend_migrate.analysis.dictionary_keys import DictionaryTracker
from ascend_migrate.analysis.project_classes import project_module_type
from ascend_migrate.analysis.rules import RULES
from ascend_migrate.analysis.rules.api import (
    ASSIGNMENT,
    ATTRIBUTE,
    BINARY_OPERATION,
    CALL,
    CLASS_DEFINITION,
    COMPARE,
    DICT,
    FORMATTED_VALUE,
    FUNCTION_DEFINITION,
    IMPORT,
    LOOP,
    METHOD_DEFINITION,
    REFERENCE,
    STRING,
    SUBSCRIPT,
    WRITTEN_IN_PLACE,
    RuleContext,
    build_hooks,
)
from ascend_migrate.analysis.symbols import (
    CLASS_INFO_ATTRIBUTE,
    GRAD_SCALER,
    KERAS_LAYER,
    KERAS_VARIABLE,
    NON_TENSOR_METHODS,
    OPTIMIZER,
    TENSOR,
    Binding,
    ClassInfo,
    Returned,
    TypeSystem,
    constructed_type,
    defined_methods,
    dotted_parts,
    element,
    import_bindings,
    is_tensor_function,
    keras_logits_loss_type,
    qualify,
)

_SKIPPED = (ast.Load, ast.Store, ast.Del, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
_FORWARD_NAMES = ("forward", "construct")
# A module's methods that return its parts (a loop over them sees Parameters, buffers or modules, never a forward's output).
_MODULE_COLLECTIONS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "modules", "named_modules",
                                 "children", "named_children", "state_dict"})
# Methods that only ask about a tensor: a format or dtype passed to them is compared, never applied on the device.
_QUERIES = frozenset({"is_contiguous"})
# Names annotated as Python numbers: restriction rows that a number never meets (`repeat_interleave(n_steps)`) ask.
# A literal assignment is not enough (`total = 0` then `total += loss` makes a tensor); a parameter's number default
# is (`num_beams=6`: a caller could pass a tensor, but the signature says what it expects).
_NUMBER_ANNOTATIONS = {"int": "builtins.int", "float": "builtins.float"}


def _number_default(default: ast.expr | None) -> str | None:
    """`builtins.int`/`builtins.float` for a parameter's default written as a number (`6`, `-1`, `0.5`; not a bool)."""
    if type(default) is ast.UnaryOp and type(default.op) is ast.USub:
        default = default.operand
    if type(default) is ast.Constant and type(default.value) in (int, float):
        return _NUMBER_ANNOTATIONS[type(default.value).__name__]
    return None


_CLASS_SCOPE = "<class body>"  # marks a class body's scope (not a valid identifier, so never a real name)


class Walker:
    def __init__(self, module_bindings: dict[str, Binding], types: TypeSystem, context: RuleContext,
                 frameworks: frozenset[str] | None = None) -> None:
        self.scopes: list[dict[str, Binding]] = [module_bindings]
        self.types = types
        self.context = context
        self.class_stack: list[ClassInfo | None] = []
        self.module_writes: list[tuple] = []
        self.referenced: set[str] = set()
        # Per scope (parallel to `scopes`): name → the string-shaped expressions assigned to it so far, for the
        # rules that follow a device or backend string into the call it reaches (`arg = "cuda:0"` ... `torch.device(arg)`).
        # At module level only this chunk's assignments count, so a chunk's findings depend on its own text.
        self.assigned: list[dict[str, list[ast.expr]]] = [{}]
        self._track_strings = bool(context.view.by_string)
        # `torch.nn.modules.conv.Conv2d(...)` builds what `torch.nn.Conv2d(...)` builds: one type for every name torch
        # exposes a class under (mappings/torch_aliases.yaml), so the rules that read types see the tables' spelling
        self._canonical = context.view.aliases.canonical
        # What built each dict variable, per scope, and the module-level dicts followed across top-level statements
        # (analysis/dictionary_keys.py). Its `watched` and `permitted` sets are held here too: the hot paths test them.
        self.dictionaries = DictionaryTracker(self.lookup)
        self.watched = self.dictionaries.watched
        self.permitted = self.dictionaries.permitted
        # Module-level functions, for the parameter types their calls give (analysis/call_sites.py): what this chunk
        # defines ("def", name, positional, keyword-only parameters), calls ("call", name, argument types, keyword
        # types) and uses otherwise ("escape", name); and the parameters this walk takes as tensors (name → names).
        self.function_records: list[tuple] = []
        self.parameter_hints: dict[str, frozenset[str]] = {}
        # Per function being walked: what each of its return statements gives (`returned_shape`).
        self.returns: list[list[Returned | None]] = []
        # id(node) → qualified name; valid while one chunk is walked (its nodes stay alive meanwhile)
        self._qualified_names: dict[int, str | None] = {}
        self._project_types: dict[str, str | None] = {}  # `model.Net` → its type, read from model.py (project_type)
        context.resolve_with(self)
        # The rules' handlers per event, from their declarations (and the pattern matchers this view has
        # entries for); each is called directly where the walker visits that event.
        hooks = build_hooks(RULES, context.view.patterns, context.route, frameworks)
        self._on_import = hooks[IMPORT]
        self._on_reference = hooks[REFERENCE]
        self._on_attribute = hooks[ATTRIBUTE]
        self._on_call = hooks[CALL]
        self._on_binary_operation = hooks[BINARY_OPERATION]
        self._on_compare = hooks[COMPARE]
        self._on_subscript = hooks[SUBSCRIPT]
        self._on_string = hooks[STRING]
        self._on_dict = hooks[DICT]
        self._on_assignment = hooks[ASSIGNMENT]
        self._on_function_definition = hooks[FUNCTION_DEFINITION]
        self._on_method_definition = hooks[METHOD_DEFINITION]
        self._on_class_definition = hooks[CLASS_DEFINITION]
        self._on_loop = hooks[LOOP]
        self._on_formatted_value = hooks[FORMATTED_VALUE]
        # Every node class the parser can make has an entry (a plain dict: the interpreter's fast path), and so
        # do the scalars that sit in some fields (identifiers, numbers, True/False/None of a match pattern).
        dispatch: dict[type, Callable[[Any], None]] = dict.fromkeys(_NODE_CLASSES, self.visit_children)
        dispatch.update(dict.fromkeys(_SCALAR_TYPES, _ignore))
        dispatch.update({
            ast.Call: self.visit_call,
            ast.Attribute: self.visit_attribute,
            ast.Name: self.visit_name,
            ast.Assign: self.visit_assign,
            ast.AnnAssign: self.visit_annotated_assign,
            ast.AugAssign: self.visit_augmented_assign,
            ast.FunctionDef: self.visit_function,
            ast.AsyncFunctionDef: self.visit_function,
            ast.ClassDef: self.visit_class,
            ast.Lambda: self.visit_lambda,
            ast.Import: self.visit_import,
            ast.ImportFrom: self.visit_import,
            ast.Expr: self.visit_expression_statement,
            ast.Compare: self.visit_compare,
            ast.Subscript: self.visit_subscript,
            ast.Constant: self.visit_constant,
            ast.For: self.visit_for,
            ast.AsyncFor: self.visit_for,
            ast.With: self.visit_with,
            ast.If: self.visit_if,
            ast.AsyncWith: self.visit_with,
            ast.ListComp: self.visit_comprehension,
            ast.SetComp: self.visit_comprehension,
            ast.GeneratorExp: self.visit_comprehension,
            ast.DictComp: self.visit_comprehension,
            ast.Dict: self.visit_dict,
            ast.NamedExpr: self.visit_named_expression,
            ast.BinOp: self.visit_binary_operation,
            ast.Match: self.visit_match,
            ast.Return: self.visit_return,
            ast.Global: self.visit_global,
            ast.FormattedValue: self.visit_formatted_value,
        })
        dispatch.update(_IGNORED)
        if not self._on_string:
            dispatch[ast.Constant] = _ignore  # no rule reads literals on this route
        self._dispatch = dispatch

    # --- traversal -------------------------------------------------------------------------------------
    # Every handler visits its children through `self._dispatch[type(child)](child)`: one call per node, not
    # two through `visit` (about a million nodes per 500,000 lines; docs/performance.md).
    def visit(self, node: ast.AST) -> None:
        self._dispatch[type(node)](node)

    def visit_children(self, node: ast.AST) -> None:
        dispatch = self._dispatch
        for field_name in _CHILD_FIELDS[type(node)]:
            value = getattr(node, field_name, None)
            if value is None:
                continue
            if type(value) is list:
                for item in value:
                    if item is not None:
                        dispatch[type(item)](item)
            else:
                dispatch[type(value)](value)

    def start_chunk(self) -> None:
        self.module_writes = []
        self.referenced = set()
        self._qualified_names.clear()
        self.assigned = [{}]
        self.dictionaries.start_chunk(self.scopes[0])
        self.function_records = []

    def finish_chunk(self) -> None:
        """Write the keys each module-level dict this chunk changed may hold, for the next chunks."""
        self.dictionaries.finish_chunk(self.scopes[0], self.module_writes)

    def visit_all(self, nodes) -> None:
        dispatch = self._dispatch
        for node in nodes:
            if node is not None:
                dispatch[type(node)](node)

    # --- names -----------------------------------------------------------------------------------------
    def lookup(self, name: str) -> Binding | None:
        """What `name` means here. Names that resolve at module level (or not at all) are recorded in
        `referenced`: an edit that rebinds one of them at module level must walk this chunk again."""
        scopes = self.scopes
        index = len(scopes) - 1
        binding = scopes[index].get(name)  # the innermost scope is always visible, even a class body
        while binding is None and index > 0:
            index -= 1
            scope = scopes[index]
            if index and _CLASS_SCOPE in scope:
                continue  # a class body's names are not visible from the functions inside it
            binding = scope.get(name)
        if index == 0 or binding is None:
            self.referenced.add(name)
        return binding

    def bind(self, name: str, binding: Binding) -> None:
        scopes = self.scopes
        if len(scopes) == 1 and binding == ("value", None):
            existing = scopes[0].get(name)
            if existing is not None and existing[0] == "import":
                return  # `except ImportError: torch = None`: keep what the import means for the rest
        scopes[-1][name] = binding
        if len(scopes) == 1:  # a module-level name: part of what the chunk contributes to the module
            if name in self.watched:
                self.dictionaries.rebound(name)
            kind, value = binding
            self.module_writes.append((name, kind, value.name if kind == "class" else value))

    def remember_value(self, name: str, value: ast.expr) -> None:
        """Keep a string-shaped value assigned to `name` (every branch's: `if ok: dev = "cuda" else: dev = "cpu"`);
        any other value replaces them all."""
        table = self.assigned[-1]
        if type(value) in _STRING_SHAPES or (type(value) is ast.BinOp and type(value.left) is ast.Constant) or (
                type(value) is ast.Call and type(value.func) is ast.Attribute and type(value.func.value) is ast.Constant):
            table.setdefault(name, []).append(value)  # most assignments are calls: only `"...".format(...)` is kept
        elif name in table:
            del table[name]

    def assigned_dicts(self, name: str) -> list[Any]:
        """What built the dict `name` holds in the innermost scope so far (empty when not a dict built here)."""
        return self.dictionaries.built(name)

    def assigned_values(self, name: str) -> list[ast.expr]:
        """The string-shaped expressions assigned to `name` in the innermost scope so far (empty when it is bound
        elsewhere or to something else)."""
        return self.assigned[-1].get(name, [])

    def names_of_type(self, base: str) -> list[str]:
        """Variables of the innermost function scope (else the module) whose type derives from `base`."""
        scope = self.scopes[-1] if len(self.scopes) > 1 else self.scopes[0]
        return [name for name, (kind, value) in scope.items()
                if kind == "value" and value is not None and base in self.types.family(value)]

    def qualified_name(self, node: ast.expr) -> str | None:
        """`torch.nn.Linear` for `nn.Linear` after `import torch.nn as nn`; None unless rooted in an import.

        Memoised per node: a call's callee is asked for by the walker and by several rule families.
        """
        key = id(node)
        memo = self._qualified_names
        if key in memo:
            return memo[key]
        result = memo[key] = self._resolve_qualified_name(node)
        return result

    def _resolve_qualified_name(self, node: ast.expr) -> str | None:
        root = node
        while type(root) is ast.Attribute:
            root = root.value
        if type(root) is not ast.Name:
            return None
        binding = self.lookup(root.id)
        if binding is None or binding[0] != "import":
            return None  # self.conv.weight, x.shape: most chains; no need to collect their parts
        if root is node:
            return binding[1]
        dotted = dotted_parts(node)  # never None here: the chain ends in the Name found above
        return qualify(binding, dotted[1]) if dotted is not None else None

    def root_name(self, node: ast.expr) -> str | None:
        while type(node) is ast.Attribute:
            node = node.value
        return node.id if type(node) is ast.Name else None

    def infer(self, node: ast.expr | None) -> str | None:
        """The type of an expression when it follows from what the walker has seen, else None."""
        # `type(node) is` in each branch (not a saved type) so the type checker narrows `node`; one builtin call each.
        if type(node) is ast.Name:
            binding = self.lookup(node.id)
            if binding is None:
                return None
            kind, value = binding
            if kind == "value":
                return value
            if kind == "import":
                return None
            return None
        if type(node) is ast.Call:
            return self.call_type(node)
        if type(node) is ast.Attribute:
            value = node.value
            if type(value) is ast.Name and value.id == "self" and self.class_stack and self.class_stack[-1] is not None:
                return self.class_stack[-1].attributes.get(node.attr)
            if node.attr in ("T", "mT", "H", "data", "grad", "real", "imag") and self.infer(value) == TENSOR:
                return TENSOR
            if node.attr in ("weight", "bias"):  # fc.weight of a torch.nn layer: a Parameter, a tensor
                owner = self.infer(value)
                if owner is not None and owner.startswith("torch.nn.") and self.types.is_module(owner):
                    return TENSOR
            if type(value) is ast.Name or type(value) is ast.Attribute:
                # an instance attribute reached from outside its class (`model.table` with model = Net(), or
                # `self.resnet.fc` with self.resnet = SmallResNet()): what the class's methods assigned to self.table
                owner = self.infer(value)
                if owner is not None and owner[:6] == "local:":
                    return self.instance_attribute(owner, node.attr)
            return None
        if type(node) is ast.BinOp:
            if self.infer(node.left) == TENSOR or self.infer(node.right) == TENSOR:
                return TENSOR
            return None
        if type(node) is ast.UnaryOp:
            return self.infer(node.operand) if isinstance(node.op, (ast.USub, ast.Invert, ast.UAdd)) else None
        if type(node) is ast.Subscript:
            value = node.value
            if type(value) is ast.Call:  # model.configure_optimizers()["optimizer"], helper()[0]
                returned = self.call_returns(value)
                if returned is not None and type(returned) is not str:
                    return element(returned, node.slice)
            if type(value) is ast.Name:
                binding = self.lookup(value.id)
                if binding is not None and binding[0] == "elements":
                    return binding[1]  # an element of a comprehension of known elements
            value_type = self.infer(value)
            if value_type == TENSOR:
                return TENSOR
            if value_type is not None and value_type.startswith(_ELEMENT_CONTAINERS):  # np.where(c)[0][i], groups[key]
                return numpy_values.element_type(value_type, node.slice, self.infer)
            return None
        return None

    def instance_attribute(self, owner: str, name: str) -> str | None:
        """The type the class `owner` ("local:Net") or a local base of it gave `self.name`, when known."""
        classes = self.types.classes
        for member in self.types.family(owner):
            info = classes.get(member[6:]) if member[:6] == "local:" else None
            if info is not None and name in info.attributes:
                return info.attributes[name]
        return None

    def call_returns(self, node: ast.Call) -> Returned | None:
        """What a call of a function or method of this file returns (`Returned`), when its returns agree."""
        func = node.func
        if type(func) is ast.Name:
            binding = self.lookup(func.id)
            return binding[1] if binding is not None and binding[0] == "function" else None
        if type(func) is ast.Attribute:
            receiver_type = self.infer(func.value)
            if receiver_type is None or not receiver_type.startswith("local:"):
                return None
            classes = self.types.classes
            for member in self.types.family(receiver_type):
                info = classes.get(member[6:]) if member.startswith("local:") else None
                if info is not None and func.attr in info.returns:
                    return info.returns[func.attr]
        return None

    def returned_shape(self, value: ast.expr | None) -> Returned | None:
        """What `return value` gives, as far as it is followed (symbols.Returned)."""
        if value is None:
            return None
        if type(value) is ast.Tuple or type(value) is ast.List:
            items = []
            for item in value.elts:
                if (type(item) is ast.List or type(item) is ast.Tuple) and len(item.elts) == 1:
                    item = item.elts[0]
                items.append(self.infer(item))
            return tuple(items) if any(items) else None
        if type(value) is ast.Dict:
            pairs = frozenset((key.value, self.infer(item)) for key, item in zip(value.keys, value.values, strict=True)
                              if type(key) is ast.Constant and type(key.value) is str)
            return pairs if any(item for _, item in pairs) else None
        return self.infer(value)

    def project_type(self, qualified: str) -> str | None:
        """The type of `Net(...)` for `from model import Net` when model.py beside this file defines Net as a
        module (`analysis/project_classes.py`); asked once per name and module analysis."""
        known = self._project_types
        if qualified not in known:
            known[qualified] = project_module_type(self.context.factory.path, qualified)
        return known[qualified]

    def call_type(self, node: ast.Call) -> str | None:
        func = node.func
        qualified = self.qualified_name(func)
        if qualified is not None:
            if is_tensor_function(qualified):
                return TENSOR
            if qualified[:6] == "numpy." or qualified in numpy_values.PYTHON_INTS:
                return numpy_values.call_type(qualified, node, self.infer)
            constructed = constructed_type(self._canonical(qualified)) or keras_logits_loss_type(qualified, node)
            if constructed is None and qualified[:1] != "." and not qualified.startswith(_LIBRARY_ROOTS):
                constructed = self.project_type(qualified)
            return constructed
        if type(func) is ast.Name:
            binding = self.lookup(func.id)
            if binding is None and func.id == "super" and not node.args and self.class_stack and self.class_stack[-1] is not None:
                # super().get_config() in a Keras layer: a method of the base layer (only Keras: the torch
                # route's tables answer super().__init__() in a Module on their own terms)
                bases = self.class_stack[-1].bases
                return bases[0] if bases and KERAS_LAYER in self.types.family(bases[0]) else None
            if binding is not None:
                kind, value = binding
                if kind == "class":
                    return f"local:{value.name}"
                if kind == "value" and self.types.is_module(value):
                    return TENSOR  # calling a module runs its forward
                if kind == "function" and type(value) is str:
                    return value  # a helper of this file that returns an optimizer, a module, a tensor
            return None
        if type(func) is ast.Attribute:
            if func.attr in _MODULE_COLLECTIONS:
                return None  # self.parameters(), model.state_dict(): a module's parts, never a forward's tensor
            receiver_type = self.infer(func.value)
            if receiver_type == TENSOR and func.attr not in NON_TENSOR_METHODS:
                return TENSOR
            if receiver_type is not None:
                family = self.types.family(receiver_type)
                if receiver_type[:6] == "numpy.":
                    return numpy_values.method_type(receiver_type, func.attr, node)
                if func.attr == "add_weight" and KERAS_LAYER in family:
                    return KERAS_VARIABLE  # a Keras layer's weight: its .assign(...) is a MindSpore Parameter's set_data
                if func.attr == "scale" and GRAD_SCALER in family:
                    return TENSOR  # scaler.scale(loss) is the scaled loss: .backward() follows
                if func.attr == "optimizers" and any(member.endswith(".LightningModule") for member in family):
                    return OPTIMIZER  # Lightning's self.optimizers() in manual optimisation
                returned = self.call_returns(node) if receiver_type.startswith("local:") else None
                if type(returned) is str:
                    return returned
            if receiver_type is not None and self.types.is_module(receiver_type) and func.attr in ("to", "cuda", "npu", "cpu", "train", "eval", "half", "float", "double", "requires_grad_"):
                return receiver_type  # these return the module itself
            if type(func.value) is ast.Name and func.value.id == "self" and self.types.is_module(receiver_type):
                return TENSOR
            attribute_type = self.infer(func)
            if attribute_type is not None and self.types.is_module(attribute_type):
                return TENSOR  # self.fc(x)
        return None

    # --- expressions -----------------------------------------------------------------------------------
    def visit_name(self, node: ast.Name) -> None:
        scopes = self.scopes
        binding = scopes[-1].get(node.id) if len(scopes) > 1 else None
        if binding is None:  # not a local of the innermost function: the full lookup (which records the name)
            binding = self.lookup(node.id)
            if self.watched and node.id in self.watched and id(node) not in self.permitted and self.module_name(node.id):
                self.dictionaries.forget_keys(node.id)
        if binding is not None:
            kind = binding[0]
            if kind == "import":
                for handler in self._on_reference:
                    handler(self.context, binding[1], node, None, node.id)
            elif kind == "function" and self.module_name(node.id):
                self.function_records.append(("escape", node.id))  # passed or stored: called from where we cannot see

    def module_name(self, name: str) -> bool:
        """Whether `name` here is the module-level variable (no function, lambda or comprehension around binds it)."""
        scopes = self.scopes
        innermost = len(scopes) - 1
        return not any(name in scopes[index] and (index == innermost or _CLASS_SCOPE not in scopes[index])
                       for index in range(innermost, 0, -1))

    def visit_formatted_value(self, node: ast.FormattedValue) -> None:
        self.visit_children(node)
        for handler in self._on_formatted_value:
            handler(self.context, node)

    def visit_global(self, node: ast.Global) -> None:
        for name in node.names:
            if name in self.watched:
                self.dictionaries.forget_keys(name)  # the function may rebind it whenever it is called

    def visit_attribute(self, node: ast.Attribute, call: ast.Call | None = None, intermediate: str = "") -> None:
        """`intermediate`: the attribute read on this one (`uniform_` for `.data` in `p.data.uniform_()`), else ""."""
        qualified = self.qualified_name(node)
        if qualified is not None:
            root = self.root_name(node)
            for handler in self._on_reference:
                handler(self.context, qualified, node, call, root)
            return
        value = node.value
        if type(value) is ast.Attribute:
            self.visit_attribute(value, None, intermediate=node.attr)
        else:
            if self.watched and type(value) is ast.Name and node.attr in _DICTIONARY_READS:
                self.permitted.add(id(value))  # kwargs.get("shuffle"): a read
            self._dispatch[type(value)](value)
        if self._on_attribute:
            receiver_type = self.infer(value)
            for handler in self._on_attribute:
                handler(self.context, node, receiver_type, call, intermediate)

    def visit_call(self, node: ast.Call) -> None:
        func = node.func
        func_type = type(func)
        called = None  # a module-level function of this file: its call's argument types are recorded
        if type(func) is ast.Attribute:
            self.visit_attribute(func, node)
        elif type(func) is ast.Name:
            binding = self.lookup(func.id)
            if binding is not None and binding[0] == "function" and self.module_name(func.id):
                called = func.id
            if binding is not None and binding[0] == "import":
                for handler in self._on_reference:
                    handler(self.context, binding[1], func, node, func.id)
            elif binding is None and func.id == "getattr" and len(node.args) >= 2:
                self.visit_getattr(node)
            elif binding is None and func.id in ("isinstance", "issubclass") and len(node.args) == 2:
                self.visit_type_check(node)
                return
        elif func_type is ast.Subscript:
            self.visit_subscript(func, built=True)  # type: ignore[arg-type]  # `PyroModule[nn.Linear](3, 4)`: the class is built
        else:
            self._dispatch[func_type](func)
        if func_type is ast.Attribute and func.attr in _QUERIES:  # type: ignore[attr-defined]
            for value in (*node.args, *(keyword.value for keyword in node.keywords)):
                self.visit_compared_only(value)  # `x.is_contiguous(memory_format=torch.channels_last)` asks, sets nothing
        else:
            dispatch = self._dispatch
            for argument in node.args:
                dispatch[type(argument)](argument)
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg is None and self.watched and type(value) is ast.Name:
                    self.permitted.add(id(value))  # f(**kwargs): the keys are read, the dict is not given away
                dispatch[type(value)](value)
        if called is not None:
            infer = self.infer
            self.function_records.append((
                "call", called, tuple(STARRED if type(argument) is ast.Starred else infer(argument) for argument in node.args),
                tuple((keyword.arg or STARRED, infer(keyword.value)) for keyword in node.keywords)))
        context = self.context
        for handler in self._on_call:
            handler(context, node)

    def visit_type_check(self, node: ast.Call) -> None:
        """`isinstance(model, nn.DataParallel)`: the classes are compared, never constructed or called."""
        dispatch = self._dispatch
        subject, classes = node.args
        dispatch[type(subject)](subject)
        self.visit_compared_only(classes)
        context = self.context
        for handler in self._on_call:
            handler(context, node)

    def visit_compared_only(self, node: ast.expr) -> None:
        """A class or function compared with another (an isinstance argument, a dict key, `type(m) is nn.X`):
        the rules hear of it (`context.compared_only`) and need not report what only running it would break."""
        context = self.context
        outer = context.compared_only
        context.compared_only = True
        try:
            self._dispatch[type(node)](node)
        finally:
            context.compared_only = outer

    def visit_getattr(self, node: ast.Call) -> None:
        """`getattr(torch.cuda, "synchronize")` is a reference to torch.cuda.synchronize."""
        owner, name = node.args[0], node.args[1]
        qualified = self.qualified_name(owner)
        if qualified is not None and type(name) is ast.Constant and type(name.value) is str and name.value.isidentifier():
            for handler in self._on_reference:
                handler(self.context, f"{qualified}.{name.value}", node, None, None)

    def visit_binary_operation(self, node: ast.BinOp) -> None:
        dispatch = self._dispatch
        left, right = node.left, node.right
        dispatch[type(left)](left)
        dispatch[type(right)](right)
        for handler in self._on_binary_operation:
            handler(self.context, node)

    def visit_compare(self, node: ast.Compare) -> None:
        operands = (node.left, *node.comparators)
        if any(_is_type_of(operand) for operand in operands):
            for operand in operands:  # `type(m) in (nn.MaxPool1d, nn.MaxPool3d)`: classes compared, never run
                self.visit_compared_only(operand)
        elif type(node.ops[0]) in _IDENTITY and all(type(op) in _IDENTITY for op in node.ops):
            for operand in operands:  # `optimizer_class is torch.optim.LBFGS`: a class's identity, nothing of it runs
                if _names_class(operand):
                    self.visit_compared_only(operand)
                else:  # `torch.version.cuda is None` reads a value that differs on the NPU
                    self._dispatch[type(operand)](operand)
        else:
            self.visit_all(operands)
        for handler in self._on_compare:
            handler(self.context, node)

    def visit_match(self, node: ast.Match) -> None:
        """`match device: case "cuda": ...` compares the subject with each literal case: the compare rules see
        `device == "cuda"`, built with the case literal's own position (so a fix edits the case)."""
        self.visit_children(node)
        if not self._on_compare:
            return
        for case in node.cases:
            for value in _case_literals(case.pattern):
                comparison = ast.Compare(left=node.subject, ops=[ast.Eq()], comparators=[value])
                ast.copy_location(comparison, value)
                for handler in self._on_compare:
                    handler(self.context, comparison)

    def visit_subscript(self, node: ast.Subscript, built: bool = False) -> None:
        dispatch = self._dispatch
        value, index = node.value, node.slice
        if self.watched and type(value) is ast.Name and type(node.ctx) is ast.Load:
            self.permitted.add(id(value))  # kwargs["batch_size"]: a read
        if type(value) is ast.Attribute and type(node.ctx) is ast.Store:
            self.visit_attribute(value, None, intermediate=WRITTEN_IN_PLACE)  # `p.data[:] = v`: a write into p.data
        else:
            dispatch[type(value)](value)
        index_type = type(index)
        if not built and ((index_type is ast.Attribute and index.attr[:1].isupper()) or  # type: ignore[attr-defined]
                          (index_type is ast.Name and index.id[:1].isupper())):  # type: ignore[attr-defined]
            self.visit_compared_only(index)  # `cache[nn.ModuleList] = ...`: a key is looked up, nothing of it runs
        else:
            dispatch[type(index)](index)
        for handler in self._on_subscript:
            handler(self.context, node)

    def visit_constant(self, node: ast.Constant) -> None:
        if type(node.value) is str:
            for handler in self._on_string:
                handler(self.context, node)

    def visit_dict(self, node: ast.Dict) -> None:
        for key in node.keys:
            if key is not None:  # None: a `**mapping` entry
                self.visit_compared_only(key)  # `{nn.MaxPool1d: rule}`: a key is looked up, never called
            elif self.watched:
                value = node.values[node.keys.index(key)]
                if type(value) is ast.Name:
                    self.permitted.add(id(value))  # {**kwargs}: a copy of its keys
        self.visit_all(node.values)
        for handler in self._on_dict:
            handler(self.context, node)

    def visit_expression_statement(self, node: ast.Expr) -> None:
        value = node.value
        if type(value) is ast.Constant and type(value.value) is str:
            return  # a docstring or a bare string: prose, never a finding
        written: ast.expr | None = None  # d.update(...) / d.setdefault(...): the dict it writes
        updated: str | None = None  # its name when it is a name
        if type(value) is ast.Call and type(value.func) is ast.Attribute and value.func.attr in ("update", "setdefault"):
            written = value.func.value
            if type(written) is ast.Name:
                updated = written.id
                if updated in self.watched and len(self.scopes) == 1:
                    self.permitted.add(id(written))  # recorded below
        self._dispatch[type(value)](value)
        if written is not None:
            if updated is not None:
                self.dictionaries.record_write(updated, value)
            self.type_dict_write(written, None)  # values of any type may come in: no element type any more

    def visit_return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None:
            self._dispatch[type(value)](value)
        if self.returns:
            self.returns[-1].append(self.returned_shape(value))

    def visit_named_expression(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.bind(node.target.id, ("value", self.infer(node.value)))

    # --- statements that bind ----------------------------------------------------------------------------
    def visit_assign(self, node: ast.Assign) -> None:
        value = node.value
        self._dispatch[type(value)](value)
        value_type = self.infer(value)
        if value_type is None and type(value) is ast.Dict and not value.keys:
            value_type = numpy_values.DICT  # `groups = {}`: its elements are typed by the writes that follow
        module_level = len(self.scopes) == 1
        for target in node.targets:
            if module_level and self.watched and type(target) is ast.Subscript and type(target.value) is ast.Name:
                self.permitted.add(id(target.value))  # kwargs["shuffle"] = True at module level: recorded below
            if (type(target) is ast.Tuple or type(target) is ast.List) and type(value) is ast.Call:
                returned = self.call_returns(value)  # optimizer, scheduler = helper()
                if type(returned) is tuple and len(returned) == len(target.elts):
                    for item, item_type in zip(target.elts, returned, strict=True):
                        self.visit_target(item, item_type if type(item_type) is str else None)
                    continue
            if value_type is None and type(value) is ast.Constant and value.value is None and _typed_self_attribute(self, target):
                continue  # `self.bias = None` in the other branch: the attribute is that type or None, still that type
            element = None
            if value_type is None and type(target) is ast.Name:
                if type(value) is ast.DictComp:
                    element = self.infer(value.value)
                elif type(value) is ast.ListComp:
                    element = self.infer(value.elt)
                if element is not None:  # {x: TensorDataset(...) for x in ...}: what `name[key]` is (infer)
                    self.bind(target.id, ("elements", element))
                    continue
            self.visit_target(target, value_type)
            if self._track_strings and type(target) is ast.Name:
                self.remember_value(target.id, value)
            if type(target) is ast.Name:
                if self.dictionaries.may_remember(value):
                    self.dictionaries.remember(target.id, value)
            elif type(target) is ast.Subscript:
                self.type_dict_write(target.value, value_type)
                if type(target.value) is ast.Name:
                    self.dictionaries.record_write(target.value.id, target)  # d["shuffle"] = True
        for handler in self._on_assignment:
            handler(self.context, node.targets, value)

    def type_dict_write(self, container: ast.expr, value_type: str | None) -> None:
        """`groups[key] = value` on a dict typed empty (a name of this scope, or `self.groups`): what its elements are."""
        if type(container) is ast.Name:
            binding = self.scopes[-1].get(container.id)
            if binding is not None and binding[0] == "value":
                updated = numpy_values.dict_after_write(binding[1], value_type)
                if updated is not None:
                    self.bind(container.id, ("value", updated))
        elif type(container) is ast.Attribute and type(container.value) is ast.Name and container.value.id == "self" and \
                self.class_stack and self.class_stack[-1] is not None:
            attributes = self.class_stack[-1].attributes
            updated = numpy_values.dict_after_write(attributes.get(container.attr), value_type)
            if updated is not None:
                attributes[container.attr] = updated

    def visit_annotation(self, annotation: ast.expr) -> None:
        """An annotation runs nothing: the rules hear of it (`context.in_annotation`) and may stay quiet."""
        self.context.in_annotation = True
        try:
            self.visit(annotation)
        finally:
            self.context.in_annotation = False

    def visit_annotated_assign(self, node: ast.AnnAssign) -> None:
        self.visit_annotation(node.annotation)
        value_type = None
        if node.value is not None:
            self.visit(node.value)
            value_type = self.infer(node.value)
        if value_type is None:
            value_type = self.annotation_type(node.annotation)
        self.visit_target(node.target, value_type)
        if self._track_strings and node.value is not None and type(node.target) is ast.Name:
            self.remember_value(node.target.id, node.value)
        if node.value is not None and type(node.target) is ast.Name and self.dictionaries.may_remember(node.value):
            self.dictionaries.remember(node.target.id, node.value)
        if node.value is not None:
            for handler in self._on_assignment:
                handler(self.context, [node.target], node.value)

    def visit_augmented_assign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        target = node.target
        if type(target) is ast.Name:
            self.dictionaries.record_write(target.id, node)  # d |= other
            if type(node.op) is not ast.BitOr and self.infer(node.value) == TENSOR and self.infer(target) is None:
                # `correct = 0` then `correct += (pred == y).sum()`: a number plus a tensor is a tensor from here on
                self.bind(target.id, ("value", TENSOR))
        if type(target) is ast.Attribute:
            self.visit_attribute(target, None, intermediate=WRITTEN_IN_PLACE)  # `p.data *= 0.5` scales p.data in place
        elif type(target) is not ast.Name:
            self.visit(target)

    def visit_target(self, target: ast.expr, value_type: str | None) -> None:
        if type(target) is ast.Name:
            self.bind(target.id, ("value", value_type))
        elif type(target) is ast.Attribute:
            value = target.value
            if type(value) is ast.Name and value.id == "self" and self.class_stack and self.class_stack[-1] is not None:
                self.class_stack[-1].attributes[target.attr] = value_type
                return
            self.visit_attribute(target)
        elif type(target) is ast.Tuple or type(target) is ast.List:
            for element in target.elts:
                self.visit_target(element, None)
        elif type(target) is ast.Starred:
            self.visit_target(target.value, None)
        else:
            self.visit(target)

    def visit_for(self, node: ast.For | ast.AsyncFor) -> None:
        iterated = node.iter
        if type(iterated) in _SEQUENCES and _only_type_checked(iterated, node.target, node):
            self.visit_compared_only(iterated)  # `for kind in (nn.Conv1d, nn.Conv2d): if isinstance(m, kind): ...`
        else:
            self.visit(iterated)
        target = node.target
        if type(iterated) is ast.Call and type(iterated.func) is ast.Name and iterated.func.id == "enumerate" and \
                len(iterated.args) == 1 and type(target) is ast.Tuple and len(target.elts) == 2 and self.lookup("enumerate") is None:
            self.visit_target(target.elts[0], None)  # for i, w in enumerate(W): w is an element of W
            self.visit_target(target.elts[1], TENSOR if self.infer(iterated.args[0]) == TENSOR else None)
        else:
            self.visit_target(target, TENSOR if type(target) is ast.Name and self.infer(iterated) == TENSOR else None)
        self.visit_all(node.body)
        self.visit_all(node.orelse)
        for handler in self._on_loop:
            handler(self.context, node)

    def visit_if(self, node: ast.If) -> None:
        """`if isinstance(m, nn.Linear):` in a function, m of unknown type (init_weights(self, m) given to apply()):
        m is a torch.nn.Linear in the body, so `m.bias.data.fill_(0.01)` there is a layer's parameter fill (MS246;
        siamese_network). Only a function's own name, and only while the body is walked."""
        test = node.test
        narrowed = None
        if (type(test) is ast.Call and type(test.func) is ast.Name and test.func.id == "isinstance" and len(test.args) == 2
                and type(test.args[0]) is ast.Name and len(self.scopes) > 1):
            name = test.args[0].id
            previous = self.scopes[-1].get(name)
            if previous == ("value", None) or (previous is None and self.lookup(name) is None):
                qualified = self.qualified_name(test.args[1])
                kind = constructed_type(qualified) if qualified is not None else None
                if kind is not None and kind.startswith("torch.nn.") and self.types.is_module(kind):
                    narrowed = (name, previous, kind)
        if narrowed is None:
            self.visit_children(node)
            return
        name, previous, kind = narrowed
        self.visit(test)
        scope = self.scopes[-1]
        scope[name] = ("value", kind)
        self.visit_all(node.body)
        if scope.get(name) == ("value", kind):  # not rebound in the body: the name's meaning before the test comes back
            if previous is None:
                del scope[name]
            else:
                scope[name] = previous
        self.visit_all(node.orelse)

    def visit_with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.visit_target(item.optional_vars, None)
        self.visit_all(node.body)

    def visit_import(self, node: ast.Import | ast.ImportFrom) -> None:
        for handler in self._on_import:
            handler(self.context, node)
        for name, binding in import_bindings(node):
            self.bind(name, binding)

    def annotation_type(self, annotation: ast.expr | None) -> str | None:
        if annotation is None:
            return None
        qualified = self.qualified_name(annotation)
        if qualified is None and type(annotation) is ast.Constant and type(annotation.value) is str:
            return TENSOR if annotation.value in ("torch.Tensor", "Tensor") else None
        if qualified is None:
            if type(annotation) is ast.Name and annotation.id in _NUMBER_ANNOTATIONS and self.lookup(annotation.id) is None:
                return _NUMBER_ANNOTATIONS[annotation.id]  # `n_steps: int`: a Python number
            # `pool: Pool` for a class of this file: its own type, so its attributes are never taken for a tensor's.
            return self.base_type(annotation) if type(annotation) is ast.Name else None
        return TENSOR if qualified in (TENSOR, "torch.nn.Parameter") else constructed_type(qualified)

    # --- scopes ----------------------------------------------------------------------------------------
    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.visit_all(node.decorator_list)
        arguments = node.args
        self.visit_all(arguments.defaults)
        self.visit_all(arguments.kw_defaults)
        all_arguments = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        for argument in (*all_arguments, arguments.vararg, arguments.kwarg):
            if argument is not None and argument.annotation is not None:
                self.visit_annotation(argument.annotation)
        if node.returns is not None:
            self.visit_annotation(node.returns)
        current_class = self.class_stack[-1] if self.class_stack else None
        self.bind(node.name, ("function", None))
        context = self.context
        for handler in self._on_function_definition:
            handler(context, node)
        if current_class is not None:
            class_type = f"local:{current_class.name}"
            for handler in self._on_method_definition:
                handler(context, node, class_type)
        scope: dict[str, Binding] = {}
        hinted: frozenset[str] = frozenset()
        if len(self.scopes) == 1:  # a module-level function
            self.function_records.append(("def", node.name, tuple(argument.arg for argument in positional_arguments(arguments)),
                                          tuple(argument.arg for argument in arguments.kwonlyargs)))
            hinted = self.parameter_hints.get(node.name, hinted)
        is_forward = current_class is not None and node.name in _FORWARD_NAMES and self.types.is_module(f"local:{current_class.name}")
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults_start = len(positional) - len(arguments.defaults)
        for index, argument in enumerate(all_arguments):
            argument_type = self.annotation_type(argument.annotation)
            if argument.annotation is None and index >= defaults_start:  # `num_beams=6`: the code says a number
                default = arguments.defaults[index - defaults_start] if index < len(positional) else arguments.kw_defaults[index - len(positional)]
                argument_type = _number_default(default)
            if index == 0 and current_class is not None and argument.arg == "self":
                argument_type = f"local:{current_class.name}"
            elif argument_type is None and is_forward and index < defaults_start and index < len(positional):
                argument_type = TENSOR  # forward(self, x): the inputs of a module are tensors
            elif argument_type is None and argument.arg in hinted:
                argument_type = TENSOR  # every call of this module-level function passes a tensor (call_sites.py)
            scope[argument.arg] = ("value", argument_type)
        for argument in (arguments.vararg, arguments.kwarg):
            if argument is not None:
                scope[argument.arg] = ("value", None)
        in_class_body = _CLASS_SCOPE in self.scopes[-1]
        self.scopes.append(scope)
        self.assigned.append({})
        self.dictionaries.enter_scope()
        self.returns.append([])
        self.class_stack.append(current_class)  # methods see self.attributes of their class
        try:
            self.visit_all(node.body)
        finally:
            self.class_stack.pop()
            self.scopes.pop()
            self.assigned.pop()
            self.dictionaries.leave_scope()
            returns = self.returns.pop()
        returned = returns[0] if returns and returns[0] is not None and all(item == returns[0] for item in returns) else None
        if returned is not None:
            if in_class_body and current_class is not None:
                current_class.returns[node.name] = returned
            elif not in_class_body:
                self.bind(node.name, ("function", returned))

    def visit_lambda(self, node: ast.Lambda) -> None:
        arguments = node.args
        self.visit_all(arguments.defaults)
        self.visit_all(arguments.kw_defaults)
        scope = {argument.arg: ("value", None) for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
        self.scopes.append(scope)
        self.assigned.append({})
        self.dictionaries.enter_scope()
        try:
            self.visit(node.body)
        finally:
            self.scopes.pop()
            self.assigned.pop()
            self.dictionaries.leave_scope()

    def visit_class(self, node: ast.ClassDef) -> None:
        self.visit_all(node.decorator_list)
        for base in node.bases:  # `class Net(PyroModule[nn.Linear])`: subclassing builds on the indexed class
            if type(base) is ast.Subscript:
                self.visit_subscript(base, built=True)
            else:
                self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        # Types of a module's classes go by name (local:Net): a chunk defining a class reads that name too, so
        # that defining another class of the same name elsewhere analyses this one again.
        self.referenced.add(node.name)
        info = getattr(node, CLASS_INFO_ATTRIBUTE, None)  # a module-level class: made by the pre-pass
        if info is None:
            info = ClassInfo(node.name, tuple(base for base in (self.base_type(base) for base in node.bases) if base),
                             methods=defined_methods(node))
            self.types.classes.setdefault(node.name, info)
        self.bind(node.name, ("class", info))
        for handler in self._on_class_definition:
            handler(self.context, node)
        self.scopes.append({_CLASS_SCOPE: ("value", None)})
        self.assigned.append({})
        self.dictionaries.enter_scope()
        self.class_stack.append(info)
        try:
            self.visit_all(node.body)
        finally:
            self.class_stack.pop()
            self.scopes.pop()
            self.assigned.pop()
            self.dictionaries.leave_scope()
        if len(self.scopes) == 1 and info.returns:
            # What its methods return is part of what the chunk contributes: a chunk calling
            # `model.configure_optimizers()` is walked again when that changes (replay skips this record).
            self.module_writes.append((node.name, "returns", frozenset(info.returns.items())))

    def base_type(self, base: ast.expr) -> str | None:
        qualified = self.qualified_name(base)
        if qualified is not None:
            return qualified
        if type(base) is ast.Name:
            binding = self.lookup(base.id)
            if binding is not None and binding[0] == "class":
                return f"local:{binding[1].name}"
        return None

    def visit_comprehension(self, node) -> None:
        self.scopes.append({})
        self.assigned.append({})
        self.dictionaries.enter_scope()
        try:
            for generator in node.generators:
                if type(generator.iter) in _SEQUENCES and _only_type_checked(generator.iter, generator.target, node):
                    self.visit_compared_only(generator.iter)  # `any(isinstance(m, c) for c in [nn.DataParallel, ...])`
                else:
                    self.visit(generator.iter)
                self.visit_target(generator.target, TENSOR if self.infer(generator.iter) == TENSOR else None)
                self.visit_all(generator.ifs)
            if type(node) is ast.DictComp:
                self.visit(node.key)
                self.visit(node.value)
            else:
                self.visit(node.elt)
        finally:
            self.scopes.pop()
            self.assigned.pop()
            self.dictionaries.leave_scope()


def _ignore(node: object) -> None:
    return None


def _node_classes() -> list[type]:
    found: list[type] = []
    pending = [ast.AST]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def _is_type_of(node: ast.expr) -> bool:
    """`type(x)` or `x.__class__`."""
    if type(node) is ast.Call:
        return type(node.func) is ast.Name and node.func.id == "type" and len(node.args) == 1
    return type(node) is ast.Attribute and node.attr == "__class__"


_REFERENCES = (ast.Name, ast.Attribute)
_IDENTITY = (ast.Is, ast.IsNot)
_SEQUENCES = (ast.List, ast.Tuple, ast.Set)
_TYPE_CHECKS = frozenset({"isinstance", "issubclass"})


def _names_class(node: ast.expr) -> bool:
    """`torch.optim.LBFGS`, `DataParallel`: a reference whose last name is capitalised, as classes are spelt (not
    `torch.version.cuda`, a value)."""
    if type(node) is ast.Attribute:
        return node.attr[:1].isupper()
    return type(node) is ast.Name and node.id[:1].isupper()


def _only_type_checked(iterated: ast.expr, target: ast.expr, loop: ast.AST) -> bool:
    """A literal list, tuple or set of class references whose loop variable is read only as the class argument of
    isinstance/issubclass inside the loop: the classes are compared, never built."""
    if type(iterated) not in _SEQUENCES or type(target) is not ast.Name or not iterated.elts:  # type: ignore[attr-defined]
        return False
    if not all(type(element) in _REFERENCES and _names_class(element) for element in iterated.elts):  # type: ignore[attr-defined]
        return False
    name = target.id
    checked: set[int] = set()
    reads = []
    for child in ast.walk(loop):
        if type(child) is ast.Call and type(child.func) is ast.Name and child.func.id in _TYPE_CHECKS and len(child.args) == 2:
            classes = child.args[1]
            checked.update(id(element) for element in (classes.elts if type(classes) is ast.Tuple else (classes,)))
        elif type(child) is ast.Name and child.id == name and type(child.ctx) is ast.Load:
            reads.append(id(child))
    return bool(reads) and all(read in checked for read in reads)


def _case_literals(pattern: ast.pattern):
    """The literal values a case pattern compares with: `case "cuda":`, `case "cuda" | "cuda:0":`."""
    if type(pattern) is ast.MatchValue:
        yield pattern.value
    elif type(pattern) is ast.MatchOr:
        for alternative in pattern.patterns:
            yield from _case_literals(alternative)
    elif type(pattern) is ast.MatchAs and pattern.pattern is not None:
        yield from _case_literals(pattern.pattern)


_NODE_CLASSES = _node_classes()
# Values that may spell a device or backend string: literals, f-strings, `"cuda:{}".format(i)`, `"cuda:%d" % i`,
# `"cuda:" + str(i)`, conditional values and lists of them.
# Calls rooted in these libraries are never the project's own classes (`project_type` is not asked).
_LIBRARY_ROOTS = ("torch.", "torch_npu.", "mindspore.", "numpy.", "os.", "sys.", "math.", "argparse.", "collections.", "typing.",
                  "tensorflow.", "keras.", "apex.", "transformers.")
# Methods that only read a dict: a module-level dict whose keys are followed keeps them through these.
_DICTIONARY_READS = frozenset({"get", "keys", "items", "values", "copy", "__contains__"})


def positional_arguments(arguments: ast.arguments) -> list[ast.arg]:
    return [*arguments.posonlyargs, *arguments.args]


_STRING_SHAPES = frozenset({ast.Constant, ast.JoinedStr, ast.IfExp, ast.List, ast.Tuple})  # and see remember_value
# Contexts and operators: nothing to read in them (the handlers of their parents look at them directly).
_IGNORED = {subclass: _ignore for skipped in _SKIPPED for subclass in (skipped, *skipped.__subclasses__())}
_SCALAR_TYPES = (str, int, float, complex, bool, bytes, type(None), type(Ellipsis))
# Types whose elements analysis/numpy_values.py knows (an index array, a tuple of them, a dict typed by its writes).
_ELEMENT_CONTAINERS = ("numpy.", "tuple[numpy.", "builtins.dict[")


def _typed_self_attribute(walker, target: ast.expr) -> bool:
    """`self.name` whose type the class already knows (a placeholder None then keeps it)."""
    if type(target) is not ast.Attribute or type(target.value) is not ast.Name or target.value.id != "self":
        return False
    return bool(walker.class_stack and walker.class_stack[-1] is not None and walker.class_stack[-1].attributes.get(target.attr))


# The fields of each node class that can hold child nodes worth visiting: not the expression context, not the
# operator, not identifiers or flags (a node's `_fields` lists them all).
_LEAF_FIELDS = frozenset({"ctx", "op", "id", "attr", "arg", "asname", "module", "level", "names", "type_comment",
                          "conversion", "kind", "is_async", "simple", "kwd_attrs", "rest", "tag"})
_CHILD_FIELDS = {cls: tuple(name for name in getattr(cls, "_fields", ()) if name not in _LEAF_FIELDS) for cls in _NODE_CLASSES}
