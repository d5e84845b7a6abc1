"""Turns the reference CSVs (MindSpore's API mapping docs, extracted) into mappings/*.yaml.

The committed YAML is the reviewed source of truth; this package only makes the first draft reproducible.
Run `python -m tools.generate_mappings` from the repository root.
"""
