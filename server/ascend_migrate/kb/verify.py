"""`kb verify`: prove that every source and target name in the tables exists in the real packages.

Installed packages (torch, mindspore, TensorFlow, the standard library) are checked by importing the longest
importable module prefix and following getattr. torch_npu needs CANN to import, so its names are found in
the Python sources of its wheel, read as a zip without importing anything. A name whose package is not
installed, or whose entry's version range excludes the installed version, is skipped and counted, never
passed silently.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import re
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ascend_migrate.kb.schema import Entry
from ascend_migrate.kb.versions import VersionRangeError, parse_version

TORCH_NPU_WHEEL_VARIABLE = "ASCEND_MIGRATE_TORCH_NPU_WHEEL"
SOURCE_MATCHES = ("name", "method", "definition", "import")
_TENSORFLOW_ROOTS = ("tensorflow", "keras", "tensorflow_probability")
_QUALIFIED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
# Bindings that only CUDA builds of torch compile in (the CPU wheel CI installs has none of them): names that
# mention CUDA or NCCL, and these. A source among them is counted as "CUDA build only", not as unresolved.
CUDA_BUILD_ONLY = frozenset({"torch._C._host_emptyCache"})


@dataclass(frozen=True, slots=True)
class Problem:
    """A name that does not resolve: where the entry is, which side, and why."""

    location: str  # file:line of the entry
    api: str
    side: str  # "source" or "target"
    name: str
    reason: str

    def line(self) -> str:
        return f"{self.location}: {self.side} {self.name} (entry {self.api}) does not resolve: {self.reason}"


class NeedsDependency(str):
    """A reason meaning: the module exists but imports a package that is not installed, so it cannot be checked."""


class ModuleResolver:
    """Resolves dotted names in an installed package by importing modules and following attributes."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.available = importlib.util.find_spec(package) is not None
        self._results: dict[str, str | None] = {}
        self._objects: dict[str, object] = {}
        self.version = ""
        if self.available:
            try:
                module = importlib.import_module(package)
                self.version = str(getattr(module, "__version__", ""))
            except Exception as error:  # a broken install: every name reports why
                self.available = False
                self.version = f"(import failed: {type(error).__name__}: {error})"

    def resolve(self, name: str) -> str | None:
        """None when `name` exists; otherwise the reason it does not."""
        if name not in self._results:
            self._results[name] = self._resolve(name)
        return self._results[name]

    def value(self, name: str) -> object | None:
        """The object `name` resolved to (None when it did not resolve)."""
        return self._objects.get(name) if self.resolve(name) is None else None

    def _resolve(self, name: str) -> str | None:
        if self.package in _TENSORFLOW_ROOTS:
            # TensorFlow's public API is attributes of lazily loaded modules (`tf.distribute.get_strategy` is not in
            # the importable package tensorflow.distribute): follow them as user code does, and read a Keras name
            # the Keras 3 that tf.keras is lacks in tf_keras (Keras 2), which the inventory counts as the same API.
            for candidate in (name, "tf_keras." + name[len("tensorflow.keras."):]) if name.startswith("tensorflow.keras.") else (name,):
                value = _attribute_path(candidate)
                if value is not _MISSING:
                    self._objects[name] = value
                    return None
        parts = name.split(".")
        import_error = ""
        for length in range(len(parts), 0, -1):
            module_name = ".".join(parts[:length])
            try:
                value = importlib.import_module(module_name)
            except ModuleNotFoundError as error:
                missing = error.name or ""
                if missing and not module_name.startswith(missing) and _module_exists(module_name):
                    return NeedsDependency(f"{module_name} needs {missing.split('.')[0]}, which is not installed")
                continue
            except Exception as error:  # a module that exists but fails to import
                if not import_error:
                    import_error = f"importing {module_name} failed: {type(error).__name__}: {error}"
                continue
            for index, attribute in enumerate(parts[length:], start=length):
                try:
                    value = getattr(value, attribute)
                except Exception:
                    if index == len(parts) - 1 and _constructor_assigns(value, attribute):
                        value = None  # `torch.nn.Embedding.weight`: an instance attribute its __init__ sets
                        continue
                    owner = ".".join(parts[:index])
                    reason = f"{owner} has no attribute {attribute}"
                    return f"{reason} ({import_error})" if import_error else reason
            self._objects[name] = value
            return None
        return import_error or f"no module {parts[0]}"


_MISSING = object()


def _constructor_assigns(owner: object, attribute: str) -> bool:
    """Whether `owner` is a class whose __init__ (its own or a base's) assigns `self.<attribute>`: an instance
    attribute such as a layer's `weight` exists on every instance but not on the class."""
    if not isinstance(owner, type):
        return False
    import inspect
    import re

    assignment = re.compile(rf"\bself\.{re.escape(attribute)}\s*(?::[^=\n]*)?=(?!=)")
    for klass in owner.__mro__:
        constructor = klass.__dict__.get("__init__")
        if constructor is None:
            continue
        try:
            source = inspect.getsource(constructor)
        except (OSError, TypeError):  # a builtin or C-extension constructor: nothing to read
            continue
        if assignment.search(source):
            return True
    return False


def _attribute_path(name: str) -> object:
    """The object `name` reaches by attribute access from its top-level package, or _MISSING."""
    parts = name.split(".")
    try:
        value = importlib.import_module(parts[0])
        for part in parts[1:]:
            value = getattr(value, part)
    except Exception:  # an absent attribute, or a lazy module that fails to load
        return _MISSING
    return value


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except Exception:  # a parent package that fails to import
        return False


class WheelResolver:
    """Resolves dotted names in the Python sources of a wheel, without importing (for torch_npu)."""

    def __init__(self, wheel: Path) -> None:
        self.wheel = wheel
        self.available = True
        self.version = _wheel_version(wheel)
        self.modules: dict[str, _ModuleNames] = {}
        self.functions: set[str] = set()  # every function name defined anywhere (methods patched onto torch)
        self.extension_names: set[str] = set()  # torch_npu._C.X chains the Python sources use (C++ names)
        self.patched_torch_names: set[str] = set()  # "distributed.is_hccl_available": names patched onto torch
        assigned: dict[str, set[str]] = {}  # `torch_npu.npu_fusion_attention = ...` anywhere: the module gets the name
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if not member.endswith(".py"):
                    continue
                module = member[:-3].replace("/", ".")
                if module.endswith(".__init__"):
                    module = module[: -len(".__init__")]
                try:
                    tree = ast.parse(archive.read(member).decode("utf-8", errors="replace"))
                except SyntaxError:
                    continue
                names = _ModuleNames.from_tree(tree)
                self.modules[module] = names
                self.functions.update(names.functions)
                self.extension_names.update(_extension_chains(tree))
                for owner, attribute in _attribute_assignments(tree):
                    assigned.setdefault(owner, set()).add(attribute)
                if ".patches." in module or module.endswith(".patches"):
                    self.patched_torch_names.update(_string_constants(tree))
        for owner, attributes in assigned.items():
            if owner in self.modules:
                self.modules[owner].exported |= attributes
        exposed = self.modules.get("torch_npu.utils.exposed_api")
        if "torch_npu" in self.modules and exposed is not None:
            # torch_npu's __init__ copies its custom operators (npu_fusion_attention, fast_gelu...) from these lists.
            self.modules["torch_npu"].exported |= exposed.list_strings

    def resolve(self, name: str) -> str | None:
        if name.startswith("torch_npu._C."):
            return None if name in self.extension_names else f"{name} is not used by any Python source in {self.wheel.name}"
        parts = name.split(".")
        for length in range(len(parts), 0, -1):
            module = ".".join(parts[:length])
            if module not in self.modules:
                continue
            rest = parts[length:]
            if not rest:
                return None
            return self._resolve_in(module, rest, depth=0)
        return f"no module {parts[0]} in {self.wheel.name}"

    def _resolve_in(self, module: str, rest: list[str], depth: int) -> str | None:
        names = self.modules[module]
        first = rest[0]
        if first in names.defined or first in names.exported or names.dynamic:
            if len(rest) > 1 and first in names.classes:
                attributes = names.classes[first]
                if rest[1] not in attributes:
                    return f"class {module}.{first} in {self.wheel.name} defines no {rest[1]}"
            return None
        if f"{module}.{first}" in self.modules:
            return None if len(rest) == 1 else self._resolve_in(f"{module}.{first}", rest[1:], depth)
        if depth < 3:
            for star in names.star_imports:
                for candidate in _star_candidates(module, star):
                    if candidate not in self.modules:
                        continue
                    reason = self._resolve_in(candidate, rest, depth + 1)
                    if reason is None or first in self.modules[candidate].defined:
                        return reason  # found there: its answer (deeper parts included) is the answer
        return f"{module} in {self.wheel.name} has no {first}"


@dataclass
class _ModuleNames:
    defined: set[str] = field(default_factory=set)
    exported: set[str] = field(default_factory=set)
    functions: set[str] = field(default_factory=set)
    classes: dict[str, set[str]] = field(default_factory=dict)
    star_imports: list[tuple[int, str]] = field(default_factory=list)
    list_strings: set[str] = field(default_factory=set)  # strings in module-level list assignments
    dynamic: bool = False  # a module-level __getattr__: any name may exist

    @classmethod
    def from_tree(cls, tree: ast.Module) -> _ModuleNames:
        names = cls()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.defined.add(node.name)
                names.dynamic |= node.name == "__getattr__"
            elif isinstance(node, ast.ClassDef):
                names.defined.add(node.name)
                names.classes[node.name] = _class_attributes(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for element in ast.walk(target):
                        if isinstance(element, ast.Name):
                            names.defined.add(element.id)
                            if element.id == "__all__" and node.value is not None:
                                names.exported.update(_string_constants(node.value))
                if isinstance(node.value, (ast.List, ast.Tuple, ast.Set)):
                    names.list_strings.update(_string_constants(node.value))
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == "__all__":
                names.exported.update(_string_constants(node.value))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    names.defined.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == "*":
                        names.star_imports.append((node.level, node.module or ""))
                    else:
                        names.defined.add(alias.asname or alias.name)
            elif isinstance(node, (ast.If, ast.Try)):
                nested = cls.from_tree(ast.Module(body=_flatten(node), type_ignores=[]))
                names.defined |= nested.defined
                names.exported |= nested.exported
                names.classes.update(nested.classes)
                names.star_imports.extend(nested.star_imports)
                names.dynamic |= nested.dynamic
        for walked in ast.walk(tree):
            if isinstance(walked, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.functions.add(walked.name)
        return names


def _flatten(node: ast.If | ast.Try) -> list[ast.stmt]:
    body = list(node.body) + list(node.orelse)
    if isinstance(node, ast.Try):
        body += list(node.finalbody)
        for handler in node.handlers:
            body += list(handler.body)
    return body


def _class_attributes(node: ast.ClassDef) -> set[str]:
    attributes: set[str] = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            attributes.add(item.name)
        elif isinstance(item, ast.Assign):
            attributes.update(target.id for target in item.targets if isinstance(target, ast.Name))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            attributes.add(item.target.id)
    return attributes


def _attribute_assignments(tree: ast.AST) -> set[tuple[str, str]]:
    """(module, name) for every `torch_npu.module.name = ...`: names a package sets on its modules at import."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute):
                    owner = _dotted(target.value)
                    if owner and owner.startswith("torch_npu"):
                        found.add((owner, target.attr))
    return found


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else ""


def _extension_chains(tree: ast.AST) -> set[str]:
    """Every `torch_npu._C.<name>` attribute chain in a module's code."""
    chains: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            parts = []
            current: ast.expr = node
            while isinstance(current, ast.Attribute):
                parts.append(current.attr)
                current = current.value
            if isinstance(current, ast.Name) and current.id == "torch_npu":
                chain = ".".join(["torch_npu", *reversed(parts)])
                if chain.startswith("torch_npu._C."):
                    chains.add(chain)
    return chains


def _string_constants(node: ast.AST) -> set[str]:
    return {element.value for element in ast.walk(node) if isinstance(element, ast.Constant) and isinstance(element.value, str)}


def _star_candidates(module: str, star: tuple[int, str]) -> list[str]:
    """The modules a `from <star> import *` in `module` may mean (a package's __init__ and a plain module differ)."""
    level, name = star
    if level == 0:
        return [name]
    parts = module.split(".")
    candidates = []
    for keep in (len(parts) - level + 1, len(parts) - level):  # module is a package / a plain module
        if keep >= 0:
            candidates.append(".".join(part for part in [*parts[:keep], name] if part))
    return candidates


def _wheel_version(wheel: Path) -> str:
    parts = wheel.name.split("-")
    return parts[1] if len(parts) > 1 else ""


class Resolvers:
    """Which resolver answers for a name: the torch_npu wheel for torch_npu (and torch.npu), imports otherwise."""

    def __init__(self, npu_wheel: WheelResolver | None = None) -> None:
        self.npu_wheel = npu_wheel
        self._modules: dict[str, ModuleResolver] = {}

    @classmethod
    def from_environment(cls, npu_wheel: Path | None = None) -> Resolvers:
        path = npu_wheel or (Path(os.environ[TORCH_NPU_WHEEL_VARIABLE]) if os.environ.get(TORCH_NPU_WHEEL_VARIABLE) else None)
        return cls(WheelResolver(path) if path is not None and path.is_file() else None)

    def module(self, package: str) -> ModuleResolver:
        if package not in self._modules:
            self._modules[package] = ModuleResolver(package)
        return self._modules[package]

    def has(self, package: str) -> bool:
        if package == "torch_npu":
            return self.npu_wheel is not None
        return self.module(package).available

    def version(self, package: str) -> str:
        if package == "torch_npu":
            return self.npu_wheel.version if self.npu_wheel else ""
        return self.module(package).version

    def resolve(self, name: str) -> str | None:
        """None when it exists; the reason otherwise. Call only for names whose package `has`."""
        root = name.split(".", 1)[0]
        if root == "torch_npu":
            if self.npu_wheel is None:
                raise ValueError(f"{name}: torch_npu names resolve only with a torch_npu wheel (`has` says no)")
            return self.npu_wheel.resolve(name)
        reason = self.module(root).resolve(name)
        if reason is not None and not isinstance(reason, NeedsDependency) and root == "torch" and self.npu_wheel is not None:
            return self._resolve_torch_npu_patch(self.npu_wheel, name, reason)
        return reason

    def _resolve_torch_npu_patch(self, npu_wheel: WheelResolver, name: str, reason: str) -> str | None:
        """torch_npu adds torch.npu (its npu module) and methods such as Tensor.npu when it is imported."""
        if name == "torch.npu" or name.startswith("torch.npu."):
            return npu_wheel.resolve("torch_npu.npu" + name[len("torch.npu"):])
        if name[len("torch."):] in npu_wheel.patched_torch_names:
            return None
        owner, _, attribute = name.rpartition(".")
        if self.module("torch").resolve(owner) is None and attribute in npu_wheel.functions:
            return None  # a method torch_npu defines and sets on a torch class (Tensor.npu, TypedStorage.is_npu)
        return f"{reason}; not in {npu_wheel.wheel.name} either"


@dataclass
class VerifyReport:
    """What `kb verify` checked, skipped and found wrong."""

    versions: dict[str, str]
    entries: int = 0
    checked: Counter = field(default_factory=Counter)  # side -> names checked
    resolved: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)  # reason -> count
    problems: list[Problem] = field(default_factory=list)
    parameters_checked: int = 0
    parameter_warnings: list[Problem] = field(default_factory=list)  # fail `kb verify` too: a fix would write the name
    missing: Counter = field(default_factory=Counter)  # required package -> names left unchecked because it is absent

    def to_json(self) -> dict:
        return {
            "versions": self.versions,
            "entries": self.entries,
            "checked": dict(self.checked),
            "resolved": dict(self.resolved),
            "skipped": dict(sorted(self.skipped.items())),
            "problems": [asdict(problem) for problem in self.problems],
            "parameters_checked": self.parameters_checked,
            "parameter_warnings": [asdict(problem) for problem in self.parameter_warnings],
            "not_verified": dict(sorted(self.missing.items())),
        }

    def lines(self) -> list[str]:
        lines = [problem.line() for problem in self.problems]
        installed = ", ".join(f"{package} {version or 'not installed'}" for package, version in self.versions.items())
        lines.append(f"installed: {installed}")
        for reason, count in sorted(self.skipped.items()):
            lines.append(f"skipped {count}: {reason}")
        for side in ("source", "target"):
            checked = self.checked[side]
            resolved = self.resolved[side]
            share = f"{resolved / checked * 100:.1f} %" if checked else "-"
            lines.append(f"{side}s: {resolved} of {checked} resolve ({share})")
        lines.append(f"parameters: {self.parameters_checked - len(self.parameter_warnings)} of {self.parameters_checked} "
                     f"parameter names in parameter differences are in the installed signatures")
        missing = ""
        if self.missing:  # no pass when the packages the tables name were not there to check against
            unchecked = ", ".join(f"{package} ({count} name{'s' if count != 1 else ''})" for package, count in sorted(self.missing.items()))
            missing = f"NOT VERIFIED against {unchecked}: not installed, "
        lines.append(f"kb verify: {self.entries} entries, {len(self.problems)} unresolved names, {missing}"
                     f"{len(self.parameter_warnings)} parameter warnings")
        return lines

    def warning_lines(self) -> list[str]:
        return [warning.line().replace("does not resolve", "is not in the signature") for warning in self.parameter_warnings]


def verify_names(knowledge_base, resolvers: Resolvers) -> VerifyReport:
    """Resolve the source and target of every entry; skip (and count) what cannot be checked here."""
    packages = ("torch", "mindspore", "tensorflow", "torch_npu")
    report = VerifyReport(versions={package: resolvers.version(package) if resolvers.has(package) else "" for package in packages})
    for entry in knowledge_base.entries:
        report.entries += 1
        location = f"{knowledge_base.directory / (entry.table + '.yaml')}:{entry.line}"
        source = _source_name(entry)
        if source is not None:
            _check(report, resolvers, entry, location, "source", source)
        target = _target_name(entry)
        if target is not None:
            _check(report, resolvers, entry, location, "target", target)
        if entry.parameters:
            _check_parameters(report, resolvers, entry, location)
    return report


# `type` rows too: the enum-typed transform parameters and ger's vec2 name a keyword a call passes (MS102 names it).
_CHECKED_CHANGES = ("renamed", "default", "removed", "added", "same", "type")
# The packages CI installs (torch_npu as its wheel): a name left unchecked for their absence is "not verified", and
# `kb verify` fails unless --allow-missing. TensorFlow and third-party libraries are skipped and counted only.
REQUIRED_PACKAGES = ("torch", "mindspore", "torch_npu")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _check_parameters(report: VerifyReport, resolvers: Resolvers, entry: Entry, location: str) -> None:
    """Parameter names of keyword-level differences must be parameters of the installed callables.

    A stale name matters: the call-arguments fix renames keywords with it. Only installed Python signatures
    are read (torch builtins have none; a `**kwargs` accepts anything). They are reported apart from the
    unresolved names; CI's stage 30 fails on any of them.
    """
    for side, name in (("source", entry.api), ("target", entry.target)):
        if not name or entry.match not in ("name", "method"):
            continue
        root = name.split(".", 1)[0]
        if root == "torch_npu" or name.startswith("torch.npu") or not resolvers.has(root):
            continue
        if not _in_range(entry, side, root, resolvers.version(root)):
            continue  # an r2.4.10 target's parameters describe MindSpore before 2.5, not the installed one
        value = resolvers.module(root).value(name)
        accepted = _parameter_names(value) if value is not None else None
        if accepted is None:
            continue
        for difference in entry.parameters:
            parameter = getattr(difference, side)
            if difference.change not in _CHECKED_CHANGES or not parameter or not _IDENTIFIER.match(parameter):
                continue
            report.parameters_checked += 1
            if parameter not in accepted:
                report.parameter_warnings.append(Problem(
                    location, entry.api, f"{side} parameter", parameter,
                    f"{name} takes {', '.join(sorted(accepted)) or 'no parameters'} ({difference.change})"))


def _parameter_names(value: object) -> set[str] | None:
    """The parameter names of a callable (for a class: its __init__, construct and forward, and for a MindSpore
    primitive its inputs too), or None if unknown."""
    import inspect

    callables = [value]
    inputs = _primitive_inputs(value) if isinstance(value, type) else set()
    if isinstance(value, type):
        callables = [getattr(value, member, None) for member in ("__init__", "construct", "forward")]
    names: set[str] = set()
    found = False
    for candidate in callables:
        if candidate is None or not callable(candidate):  # inspect.signature would refuse it
            continue
        try:
            signature = inspect.signature(candidate)
        except (TypeError, ValueError):
            continue
        found = True
        for parameter in signature.parameters.values():
            if parameter.kind is parameter.VAR_KEYWORD:
                return None
            names.add(parameter.name)
    return names | inputs if found else None


_DOCUMENTED_INPUT = re.compile(r"^\s*-\s+\*\*(\w+)\*\*", re.MULTILINE)


def _primitive_inputs(value: type) -> set[str]:
    """A MindSpore primitive (`ops.NMSWithMask(iou_threshold)(bboxes)`) takes its inputs positionally in
    `__call__(*args)`, so their names are in no signature: they are the `- **name**` items of its docstring's
    Inputs section and the `input_names` it registers (read from an instance when it needs no arguments)."""
    if not any(base.__name__ == "Primitive" and base.__module__.startswith("mindspore") for base in value.__mro__):
        return set()
    document = value.__doc__ or ""
    start = document.find("Inputs:")
    names: set[str] = set()
    if start >= 0:
        end = document.find("Outputs:", start)
        names.update(_DOCUMENTED_INPUT.findall(document[start:end if end >= 0 else None]))
    try:
        registered = getattr(value(), "input_names", None) or ()
    except Exception:  # a primitive whose __init__ needs arguments: its docstring has to do
        registered = ()
    names.update(name for name in registered if isinstance(name, str))
    return names


def _source_name(entry: Entry) -> str | None:
    if entry.match not in SOURCE_MATCHES or ("." not in entry.api and entry.match != "import"):
        return None
    return entry.api


def _target_name(entry: Entry) -> str | None:
    if not entry.target or entry.match in ("string", "pattern"):
        return None
    return entry.target


def _check(report: VerifyReport, resolvers: Resolvers, entry: Entry, location: str, side: str, name: str) -> None:
    if not _QUALIFIED.match(name):
        report.checked[side] += 1
        report.problems.append(Problem(location, entry.api, side, name, "not a qualified Python name"))
        return
    root = name.split(".", 1)[0]
    package = "torch_npu" if name == "torch.npu" or name.startswith("torch.npu.") else root
    if not resolvers.has(package):
        report.skipped[f"{side}s in {root} (not installed here)"] += 1
        if package in REQUIRED_PACKAGES:
            report.missing[package] += 1
        return
    if not _in_range(entry, side, root, resolvers.version(package)):
        report.skipped[f"{side}s outside the entry's version range for the installed {root}"] += 1
        return
    report.checked[side] += 1
    reason = resolvers.resolve(name)
    if reason is not None and side == "source" and root == "torch" and _cuda_build_only(name):
        report.checked[side] -= 1
        report.skipped["sources only in CUDA builds of torch (this torch is a CPU build)"] += 1
    elif isinstance(reason, NeedsDependency):
        report.checked[side] -= 1
        report.skipped[f"{side}s that cannot be imported here: {reason}"] += 1
    elif reason is None:
        report.resolved[side] += 1
    else:
        version = resolvers.version(package)
        report.problems.append(Problem(location, entry.api, side, name, f"{reason} ({package} {version})" if version else reason))


def _cuda_build_only(name: str) -> bool:
    """A torch name only CUDA builds have, while the installed torch is a CPU build."""
    lowered = name.lower()
    if not ("cuda" in lowered or "nccl" in lowered or name in CUDA_BUILD_ONLY):
        return False
    try:
        return importlib.import_module("torch").version.cuda is None
    except Exception:
        return False


def _in_range(entry: Entry, side: str, root: str, version_text: str) -> bool:
    """Whether the installed version lies in the entry's range for that side (sources: torch or TF; targets: MindSpore)."""
    version_range = entry.source_versions if side == "source" else entry.target_versions
    if side == "target" and root != "mindspore":
        return True  # target ranges are MindSpore versions; other targets (torch_npu, stdlib) have none
    if side == "source" and root not in ("torch", *_TENSORFLOW_ROOTS):
        return True
    try:
        version = parse_version(re.split(r"[+a-z]", version_text, maxsplit=1)[0].rstrip("."))
    except VersionRangeError:
        return True
    return version_range.contains(version)
