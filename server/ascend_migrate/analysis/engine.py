"""The engine's entry points: `analyze` (findings for a text) and `analyze_file` (findings and errors).

A module is cut into top-level statements (chunks). A pre-pass reads what each chunk binds at module level
(imports, classes, functions, objects constructed from known classes); then one walk per chunk resolves names
and feeds the rule families. The per-chunk results are what the incremental analysis of the language server
reuses (`incremental.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from ascend_migrate.analysis.call_sites import hints_for, parameter_hints
from ascend_migrate.analysis.chunks import MAX_NESTING_MESSAGE, Chunk, collector_paused, parse_module, plan_pieces
from ascend_migrate.analysis.dictionary_keys import KEYS_MARK, WATCHED_MARK
from ascend_migrate.analysis.emit import FindingFactory
from ascend_migrate.analysis.findings import FileError, FileResult, Finding
from ascend_migrate.analysis.npu_branches import without_unreached
from ascend_migrate.analysis.one_per_edit import one_per_edit
from ascend_migrate.analysis.rules.api import RuleContext, mentioned_frameworks
from ascend_migrate.analysis.rules.imports import ENTRY_POINT_MARK
from ascend_migrate.analysis.rules.unused_torch_imports import unused
from ascend_migrate.analysis.source import SourceLines
from ascend_migrate.analysis.symbols import (
    CLASS_INFO_ATTRIBUTE,
    Binding,
    ClassInfo,
    TypeSystem,
    constructed_type,
    defined_methods,
    dotted_parts,
    import_bindings,
    qualify,
)
from ascend_migrate.analysis.walker import Walker
from ascend_migrate.config import Settings
from ascend_migrate.files import split_lines
from ascend_migrate.kb.index import KnowledgeBase
from ascend_migrate.taxonomy import ROUTE_NPU


@dataclass
class ModuleAnalysis:
    """The analysis of one module, kept by the language server so that an edit re-analyses only its chunk."""

    path: str
    settings: Settings
    lines: list[str]
    chunks: list[Chunk]
    bindings: dict[str, Binding] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    _frameworks: frozenset[str] | None = field(default=None, repr=False, compare=False)

    @property
    def frameworks(self) -> frozenset[str]:
        """The TensorFlow words the text names (rules/api.mentioned_frameworks), read once per text: the rules
        installed for it follow them, and an incremental analysis compares them with the previous text's."""
        if self._frameworks is None:
            self._frameworks = mentioned_frameworks(self.lines)
        return self._frameworks

    @property
    def findings(self) -> list[Finding]:
        found = [finding for chunk in self.chunks for finding in chunk.findings]
        unused_imports = self.unused_imports
        return sorted(found + unused_imports, key=_position) if unused_imports else found

    @property
    def unused_imports(self) -> list[Finding]:
        """The findings of the module's own, not of a chunk: imports no chunk uses (rules/unused_torch_imports.py),
        decided from every chunk's walk, so an edit anywhere shows at the import line."""
        candidates = [candidate for chunk in self.chunks for candidate in chunk.unused_candidates]
        if not candidates or any(chunk.error for chunk in self.chunks):
            return []  # never "unused" where part of the module was not analysed
        return unused(candidates, (chunk.referenced for chunk in self.chunks), self.lines)

    @property
    def errors(self) -> list[FileError]:
        failed = [chunk for chunk in self.chunks if chunk.error]
        if not failed:
            return []
        first = failed[0]
        message = first.error or "cannot parse"
        if len(failed) > 1:
            message += f" (and {len(failed) - 1} more place{'s' if len(failed) > 2 else ''}; the rest of the file was analysed)"
        elif len(self.chunks) > 1:
            message += "; the rest of the file was analysed"
        return [FileError(self.path, message, first.error_line)]


def analyze(source: str, path: str, settings: Settings) -> list[Finding]:
    """Every finding in `source` for the route and filters in `settings`. Never raises on bad input."""
    return analyze_file(source, path, settings).findings


def analyze_file(source: str, path: str, settings: Settings, knowledge_base: KnowledgeBase | None = None) -> FileResult:
    analysis = analyze_module(source, path, settings, knowledge_base)
    return FileResult(path, analysis.findings, analysis.errors, _framework(analysis.bindings))


_TENSORFLOW_ROOTS = frozenset({"tensorflow", "keras", "tf_keras"})


def _framework(bindings: dict[str, Binding]) -> str:
    """"tensorflow" for a module whose module-level imports name TensorFlow or Keras and never torch."""
    roots = {value.split(".", 1)[0] for kind, value in bindings.values() if kind == "import" and isinstance(value, str)}
    return "tensorflow" if roots & _TENSORFLOW_ROOTS and "torch" not in roots else ""


def analyze_module(source: str, path: str, settings: Settings, knowledge_base: KnowledgeBase | None = None) -> ModuleAnalysis:
    lines = split_lines(source)
    with collector_paused():
        if len(source) > LARGE_MODULE_CHARACTERS:
            analysis = _analyze_in_pieces(lines, path, settings, knowledge_base)
            if analysis is not None:
                return analysis
        chunks = parse_module(lines)
        analysis = ModuleAnalysis(path, settings, lines, chunks)
        run = ChunkRunner(analysis, knowledge_base)
        for chunk in chunks:
            chunk.bindings = prepass_bindings(chunk, analysis.bindings, analysis.classes)
        run.walk(chunks)
        walk_with_parameter_hints(analysis, run, chunks)
    return analysis


def walk_with_parameter_hints(analysis: ModuleAnalysis, runner: ChunkRunner, chunks: list[Chunk]) -> None:
    """Walk again the chunks that define a module-level function every call of which passes tensors to some
    parameters (analysis/call_sites.py), with those parameters typed, and those walked with hints that no longer
    hold. Only their findings change: what they bind and record stays that of their walk without hints, so every
    other chunk is analysed as before (and an incremental analysis reaches the same result)."""
    hints = parameter_hints((chunk.function_records for chunk in chunks), ENTRY_POINT_MARK in analysis.bindings)
    for index, chunk in enumerate(chunks):
        wanted = hints_for(chunk.function_records, hints)
        if wanted == chunk.hints or chunk.error or chunk.class_infos:
            continue
        parsed = parse_module(analysis.lines[chunk.start - 1:chunk.end], first_line=chunk.start)
        if len(parsed) != 1 or parsed[0].error:
            continue
        fresh = parsed[0]
        fresh.bindings = chunk.bindings
        runner.walker.parameter_hints = {name: frozenset(names) for name, names in wanted}

        def scope_for(walked: Chunk, position: int = index) -> dict[str, Binding]:
            return replay_bindings(chunks, analysis.classes, position)
        try:
            runner.walk([fresh], scope_for)
        finally:
            runner.walker.parameter_hints = {}
            runner.walker.scopes[0] = analysis.bindings
        fresh.written, fresh.function_records = chunk.written, chunk.function_records
        fresh.referenced = chunk.referenced | fresh.referenced
        fresh.hints = wanted
        chunks[index] = fresh


# A module's syntax tree takes about 190 bytes of memory per character of source: a generated 20 MB file
# would need almost 4 GB at once. Above this size the module is parsed in pieces of about PIECE_CHARACTERS
# (cut at top-level statements), twice: once for the pre-pass, once for the walk, so that only one piece's
# tree is alive at a time. The findings are the same as from one tree (tests/analysis/test_large_modules.py).
LARGE_MODULE_CHARACTERS = 2_000_000
PIECE_CHARACTERS = 250_000


def _analyze_in_pieces(lines: list[str], path: str, settings: Settings, knowledge_base: KnowledgeBase | None) -> ModuleAnalysis | None:
    """The analysis of a large module, piece by piece; None when a piece does not parse on its own (the
    module has a syntax error, or a cut fell inside a statement): then only the whole text can say."""
    pieces = plan_pieces(lines, PIECE_CHARACTERS)
    if len(pieces) < 2:
        return None
    analysis = ModuleAnalysis(path, settings, lines, [])
    class_infos: list[list[ClassInfo]] = []  # per chunk, in pre-pass order: the walk's trees get them again
    for begin, end in pieces:
        piece = parse_module(lines[begin:end], first_line=begin + 1)
        if any(chunk.error for chunk in piece):
            return None
        for chunk in piece:
            chunk.bindings = prepass_bindings(chunk, analysis.bindings, analysis.classes)
            class_infos.append([getattr(statement, CLASS_INFO_ATTRIBUTE) for statement in _class_definitions(chunk)])
            chunk.statements = []
        analysis.chunks.extend(piece)
    try:
        runner = ChunkRunner(analysis, knowledge_base)
        runner.walk(_chunks_parsed_again(lines, pieces, analysis.chunks, class_infos))
    except _PieceChanged:
        return None
    walk_with_parameter_hints(analysis, runner, analysis.chunks)
    return analysis


class _PieceChanged(Exception):
    """A piece parsed into other chunks the second time (it cannot, for the same text; this guards it)."""


def _chunks_parsed_again(lines: list[str], pieces: list[tuple[int, int]], chunks: list[Chunk], class_infos: list[list[ClassInfo]]):
    """The module's chunks with their statements parsed again, one piece at a time, as the walk reaches them."""
    position = 0
    for begin, end in pieces:
        again = parse_module(lines[begin:end], first_line=begin + 1)
        for fresh in again:
            index = position
            position += 1
            chunk = chunks[index] if index < len(chunks) else None
            if chunk is None or (chunk.start, chunk.end) != (fresh.start, fresh.end) or fresh.error:
                raise _PieceChanged
            statements = _class_definitions(fresh)
            if len(statements) != len(class_infos[index]):
                raise _PieceChanged
            for statement, info in zip(statements, class_infos[index], strict=True):
                setattr(statement, CLASS_INFO_ATTRIBUTE, info)  # the walk uses the pre-pass's own info, as with one tree
            chunk.statements = fresh.statements
            yield chunk
    if position != len(chunks):
        raise _PieceChanged


def prepass_bindings(chunk: Chunk, bindings: dict[str, Binding], classes: dict[str, ClassInfo]) -> tuple:
    """Record the module-level names `chunk` binds into `bindings`; return them as a comparable signature."""
    signature: list[tuple] = []
    if any(is_program_statement(statement) for statement in chunk.statements):
        bindings[ENTRY_POINT_MARK] = ("import", ENTRY_POINT_MARK)
        signature.append((ENTRY_POINT_MARK, ENTRY_POINT_MARK))
    for statement in _module_level_statements(chunk):
        statement_type = type(statement)
        if statement_type is ast.Import or statement_type is ast.ImportFrom:
            for name, binding in import_bindings(statement):
                bindings[name] = binding
                signature.append((name, binding))
            if statement_type is ast.Import and any(alias.name == AUTO_MIGRATION_MODULE for alias in statement.names):
                # `import torch_npu.contrib.transfer_to_npu` binds only `torch_npu`; remember the module too
                bindings[_AUTO_MIGRATION_MARK] = ("import", AUTO_MIGRATION_MODULE)
                signature.append((_AUTO_MIGRATION_MARK, AUTO_MIGRATION_MODULE))
        elif statement_type is ast.ClassDef:
            info = ClassInfo(statement.name, tuple(base for base in (_base(base, bindings) for base in statement.bases) if base),
                             methods=defined_methods(statement))
            classes[statement.name] = info
            chunk.class_infos[statement.name] = info
            setattr(statement, CLASS_INFO_ATTRIBUTE, info)  # the walk uses this definition's own info, even if the name is reused
            bindings[statement.name] = ("class", info)
            signature.append((statement.name, "class", info.bases))
        elif statement_type is ast.FunctionDef or statement_type is ast.AsyncFunctionDef:
            bindings[statement.name] = ("function", None)
            signature.append((statement.name, "function"))
        elif statement_type is ast.Assign and len(statement.targets) == 1 and type(statement.targets[0]) is ast.Name:
            constructed = _constructed_global(statement.value, bindings)
            if constructed is not None:
                name = statement.targets[0].id
                bindings[name] = ("value", constructed)
                signature.append((name, ("value", constructed)))
    return tuple(signature)


# Methods of a module that return the module itself: `criterion = nn.CrossEntropyLoss().to(device)`.
_RETURNS_ITS_MODULE = frozenset({"to", "cuda", "npu", "cpu", "train", "eval", "half", "float", "double"})


def _constructed_global(value: ast.expr, bindings: dict[str, Binding]) -> str | None:
    """The type of a module-level `name = torch.nn.CrossEntropyLoss()` (a tracked torch class, or a class of this
    module, constructed), known before the walk: a script defines its functions first and the objects they use
    below them (`def train(): ... criterion(output, target)` above `criterion = ...`), and a function runs after
    the module has bound them. The walk of the assignment itself writes the same type; at each place the walk
    reaches, what the chunks before it wrote stays first (engine.replay_bindings)."""
    while type(value) is ast.Call and type(value.func) is ast.Attribute and value.func.attr in _RETURNS_ITS_MODULE:
        value = value.func.value
    if type(value) is not ast.Call:
        return None
    func = value.func
    if type(func) is ast.Name:
        binding = bindings.get(func.id)
        if binding is not None and binding[0] == "class":
            return f"local:{func.id}"
    dotted = dotted_parts(func)
    if dotted is None:
        return None
    qualified = qualify(bindings.get(dotted[0]), dotted[1])
    return constructed_type(qualified) if qualified is not None else None


def _module_level_statements(chunk: Chunk):
    """The chunk's statements that run at module level: its own, and those inside if/try/with/for/while."""
    pending = list(chunk.statements)
    while pending:
        statement = pending.pop(0)
        yield statement
        statement_type = type(statement)
        if statement_type in (ast.If, ast.Try, ast.With, ast.For, ast.While) or statement_type.__name__ == "TryStar":
            for block in ("body", "orelse", "finalbody"):
                pending.extend(getattr(statement, block, ()))
            for handler in getattr(statement, "handlers", ()):
                pending.extend(handler.body)


def _class_definitions(chunk: Chunk) -> list[ast.ClassDef]:
    return [statement for statement in _module_level_statements(chunk) if type(statement) is ast.ClassDef]


def replay_classes(chunks: list[Chunk], classes: dict[str, ClassInfo]) -> None:
    """Set `classes` (in place: the type system holds it) to the module's classes, the last definition of a
    name winning, as after a full pre-pass."""
    classes.clear()
    for chunk in chunks:
        classes.update(chunk.class_infos)


def replay_bindings(chunks: list[Chunk], classes: dict[str, ClassInfo], walked_before: int) -> dict[str, Binding]:
    """The module scope as a full analysis has it when it starts walking chunk number `walked_before`:
    what every chunk's pre-pass binds, then what the walks of the chunks before it wrote, in order."""
    scope: dict[str, Binding] = {}
    for chunk in chunks:
        for recorded in chunk.bindings:
            name, *value = recorded
            if value[0] == "class":
                info = classes.get(name)
                scope[name] = ("class", info) if info is not None else ("value", None)
            elif value[0] == "function":
                scope[name] = ("function", None)
            elif type(value[0]) is tuple:
                scope[name] = value[0]  # an import binding, or a constructed global's type (_constructed_global)
            else:
                scope[name] = ("import", value[0])  # a marker such as <transfer_to_npu>
    watched: frozenset[str] = frozenset()
    for chunk in chunks[:walked_before]:
        for name, kind, value in chunk.written:
            if kind == "class":
                info = classes.get(value)
                scope[name] = ("class", info) if info is not None else ("value", None)
            elif kind == "returns":
                continue  # what a class's methods return: held by its ClassInfo, recorded for change detection
            else:
                scope[name] = (kind, value)
                if kind == "keys":  # a module-level dict's keys (walker.finish_chunk): known ones are watched
                    watched = watched - {name[:-len(KEYS_MARK)]} if value is None else watched | {name[:-len(KEYS_MARK)]}
    if watched:
        scope[WATCHED_MARK] = ("watched", watched)
    return scope


def _base(node: ast.expr, bindings: dict[str, Binding]) -> str | None:
    """A base class as the walker will see it: a qualified name, or local:Name for a class of this module."""
    dotted = dotted_parts(node)
    if dotted is None:
        return None
    root, parts = dotted
    binding = bindings.get(root)
    if binding is not None and binding[0] == "class" and not parts:
        return f"local:{binding[1].name}"
    return qualify(binding, parts)


def is_program_statement(statement: ast.stmt) -> bool:
    """A top-level statement that makes a module a program rather than a library: the `__main__` guard, a
    loop, or a bare call of a local function (`main()`, `train(args)`)."""
    statement_type = type(statement)
    if type(statement) is ast.If:
        test = statement.test
        if type(test) is ast.Compare and len(test.comparators) == 1 and type(test.ops[0]) is ast.Eq:
            sides = (test.left, test.comparators[0])
            return (any(type(side) is ast.Name and side.id == "__name__" for side in sides)
                    and any(type(side) is ast.Constant and side.value == "__main__" for side in sides))
        return False
    if statement_type in (ast.For, ast.While, ast.AsyncFor):
        return True
    return type(statement) is ast.Expr and type(statement.value) is ast.Call and type(statement.value.func) is ast.Name


AUTO_MIGRATION_MODULE = "torch_npu.contrib.transfer_to_npu"
_AUTO_MIGRATION_MARK = "<transfer_to_npu>"  # not an identifier: never a name in code


def _position(finding: Finding) -> tuple[int, int, str]:
    return finding.line, finding.column, finding.code


class ChunkRunner:
    """Walks chunks of one module with its shared bindings, one rule context, and the route's view."""

    def __init__(self, analysis: ModuleAnalysis, knowledge_base: KnowledgeBase | None = None) -> None:
        settings = analysis.settings
        knowledge_base = knowledge_base or KnowledgeBase.load()
        view = knowledge_base.view(settings.target, settings.torch_version, settings.mindspore_version, settings.tensorflow_version)
        self.analysis = analysis
        import_names: dict[str, str] = {}
        factory = FindingFactory(analysis.path, settings, SourceLines(analysis.lines), import_names)
        self.types = TypeSystem(analysis.classes)
        self.context = RuleContext(view, factory, settings.target, self.types)
        # Keras/TensorFlow rules only for a module that names them (measured: 3 % of a PyTorch scan's profile)
        self.walker = Walker(analysis.bindings, self.types, self.context, analysis.frameworks)
        self._import_names = import_names

    def walk(self, chunks: list[Chunk], scope_for: Callable[[Chunk], dict[str, Binding]] | None = None) -> None:
        """Walk `chunks` in order. `scope_for(chunk)` gives the module scope a chunk starts from (the incremental
        analysis rebuilds it as a full walk in document order would have it); by default the scope is shared
        and grows as the chunks are walked."""
        self._refresh_import_names()
        factory = self.context.factory
        for chunk in chunks:
            if not chunk.statements:
                chunk.findings = []
                continue
            if scope_for is not None:
                self.walker.scopes[0] = scope_for(chunk)
            factory.line_offset = chunk.line_offset
            self.context.reset()
            self.walker.start_chunk()
            try:
                self.walker.visit_all(chunk.statements)
                self.walker.finish_chunk()
            except RecursionError:
                chunk.error = MAX_NESTING_MESSAGE
                chunk.error_line = chunk.start
            finally:
                del self.walker.scopes[1:]
                self.walker.class_stack.clear()
            chunk.findings = one_per_edit(sorted(self.context.findings, key=_position))
            if self.analysis.settings.target == ROUTE_NPU:
                chunk.findings = without_unreached(chunk.findings, chunk.statements, factory,
                                                   self.analysis.lines[chunk.start - 1:chunk.end])
            # The syntax tree is read only while its chunk is walked; an incremental run parses afresh the
            # chunks it walks again. Dropping it is most of a kept analysis's memory (the server keeps one
            # per open document).
            chunk.statements = []
            chunk.written = tuple(self.walker.module_writes)
            chunk.referenced = frozenset(self.walker.referenced)
            chunk.reads_from = self.context.reads_from
            chunk.reads_later = self.context.reads_later
            chunk.function_records = tuple(self.walker.function_records)
            chunk.unused_candidates = tuple(self.context.unused_candidates)

    def _refresh_import_names(self) -> None:
        self.context.factory.forget_renderings()
        self._import_names.clear()
        for name, (kind, value) in self.analysis.bindings.items():
            if kind == "import":
                self._import_names.setdefault(value, name)
        self.context.factory.auto_migration = any(
            qualified.startswith(AUTO_MIGRATION_MODULE) for qualified in self._import_names
        )
