"""The rooms of server/ascend_migrate import only downwards and never in a loop (read with ast, nothing imported).

A room may import from its own floor or from any floor below it. The floors, bottom first, are declared here;
a new module must be given a room (the test fails until it is).
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "ascend_migrate"

# Bottom first. A key is a module ("ascend_migrate.config") or a package with everything in it ("ascend_migrate.kb").
FLOORS = (
    ("ascend_migrate", "ascend_migrate.taxonomy", "ascend_migrate.files", "ascend_migrate.pickling"),  # the ground floor
    ("ascend_migrate.kb",),
    ("ascend_migrate.config",),  # settings: names of the taxonomy, versions of the knowledge base
    # The fix vocabulary the engine builds: the fix families (values and their edits), TextEdit and the text
    # and libcst mechanics they use. The rest of fixes/ (applying a file's fixes) sits above the engine.
    ("ascend_migrate.fixes.families", "ascend_migrate.fixes.text", "ascend_migrate.fixes.arguments", "ascend_migrate.fixes.templates",
     "ascend_migrate.fixes.node_diff", "ascend_migrate.fixes.errors", "ascend_migrate.fixes.work"),
    ("ascend_migrate.analysis",),
    ("ascend_migrate.fixes",),
    ("ascend_migrate.notebooks",),  # .ipynb: code cells as one program for the engine, fixes written back into the cells
    ("ascend_migrate.workspace", "ascend_migrate.gitignore", "ascend_migrate.reports"),
    ("ascend_migrate.projects",),  # `migrate`: a project's migrated copy, its analysis files, --auto, --distributed
    ("ascend_migrate.runtime",),  # `run`: the child's emulation, and the parent turning observations into findings
    ("ascend_migrate.weights",),  # `weights convert` and `compare`: torch and mindspore imported inside functions only
    ("ascend_migrate.commands", "ascend_migrate.lsp", "ascend_migrate.cli", "ascend_migrate.__main__",
     "ascend_migrate.generated_code_cache"),  # the faces
)

# Loops being taken apart elsewhere (issue 14 item 5: the lsp helper's split of the server); delete the entry
# when the loop is gone, and the test then keeps it gone.
KNOWN_LOOPS: set[frozenset[str]] = set()  # none left: add one here only with the issue that removes it


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every module of ours that `name` imports, at the top or inside a function (a lazy import still couples)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from package import submodule` depends on the submodule, not on the package's __init__.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _floor(module: str) -> int | None:
    best = None  # the longest key that contains the module decides
    for index, keys in enumerate(FLOORS):
        for key in keys:
            if (module == key or module.startswith(key + ".")) and (best is None or len(key) > len(best[1])):
                best = (index, key)
    return None if best is None else best[0]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _loops(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(frozenset(component))
    return components


def test_every_module_has_a_room():
    assert [name for name in _modules() if _floor(name) is None] == []


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{name} (floor {_floor(name)}) imports {target} (floor {_floor(target)})"
        for name, targets in graph.items()
        for target in sorted(targets)
        if _floor(target) > _floor(name)
    ]


def test_no_import_runs_back_up():
    assert _upward(_graph()) == []


def test_no_import_loop():
    loops = [sorted(loop) for loop in _loops(_graph()) if loop not in KNOWN_LOOPS]
    assert loops == []


def test_the_checks_see_a_loop_and_an_upward_import():
    # The walk itself must be able to fail: an upward edge that closes a loop, planted in a copy of the real graph.
    graph = _graph()
    assert "ascend_migrate.taxonomy" in graph["ascend_migrate.kb.loader"]  # the walk sees real imports
    graph["ascend_migrate.taxonomy"].add("ascend_migrate.kb.loader")
    assert _upward(graph) == ["ascend_migrate.taxonomy (floor 0) imports ascend_migrate.kb.loader (floor 1)"]
    assert any({"ascend_migrate.taxonomy", "ascend_migrate.kb.loader"} <= loop for loop in _loops(graph))
