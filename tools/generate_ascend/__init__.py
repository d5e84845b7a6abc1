"""Turns the Ascend reference data (CSVs extracted from msfmktransplt, torch_npu and msprof-analyze) into the
NPU-route tables of mappings/: cuda_npu, npu_affinity, npu_unsupported, npu_dynamic_shape and third_party.

The committed YAML is the reviewed source of truth; this package makes the draft reproducible and keeps the
hand decisions (which row becomes which entry, corrections, merges) in one readable place.
Run `python -m tools.generate_ascend --help` from the repository root.
"""
