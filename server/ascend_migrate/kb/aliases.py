"""The names one API is exported under (`tf.reduce_mean` is `tf.math.reduce_mean`; `keras.layers.Dense` is
`tf.keras.layers.Dense`), read from the inventories' `aliases` and `module_aliases`, so a lookup finds the
entry whichever name the code uses."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class NameAliases:
    """Turns any exported spelling of a name into the one spelling the inventories and tables use."""

    # name → the first name of its group (the exporting library's canonical name)
    canonical_names: dict[str, str] = field(default_factory=dict)
    # (module spelling, spelling the tables use), longest spelling first: `tensorflow.compat.v1.keras` before `keras`
    modules: tuple[tuple[str, str], ...] = ()
    # first parts of the module spellings (and the names in groups): any other name is never rewritten
    roots: frozenset[str] = frozenset()
    # first parts of the module spellings alone: a torch name (torch's groups, no module spelling) skips their loop
    module_roots: frozenset[str] = frozenset()

    @classmethod
    def build(cls, groups: list[list[str]], modules: dict[str, str]) -> NameAliases:
        canonical_names: dict[str, str] = {}
        for group in groups:
            for name in group[1:]:
                canonical_names.setdefault(name, group[0])
        ordered = tuple(sorted(modules.items(), key=lambda item: -len(item[0])))
        module_roots = frozenset(spelling.split(".", 1)[0] for spelling in modules)
        roots = module_roots | frozenset(name.split(".", 1)[0] for name in canonical_names)
        return cls(canonical_names, ordered, roots, module_roots)

    def canonical(self, name: str) -> str:
        """`name` spelt as the tables spell it: its module spelling rewritten, then its group's first name."""
        dot = name.find(".")
        root = name[:dot] if dot > 0 else name
        if root not in self.roots:
            return name  # numpy.*, os.*: one set miss
        for spelling, target in self.modules if root in self.module_roots else ():
            if name.startswith(spelling) and (len(name) == len(spelling) or name[len(spelling)] == "."):
                name = target + name[len(spelling):]
                break
        return self.canonical_names.get(name, name)
