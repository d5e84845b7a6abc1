"""The names of the code shapes the engine has a matcher for: what a `match: pattern` entry may name in `condition`.

The matchers themselves are in analysis/rules/ (each rule declares them, `analysis.rules.MATCHERS`); this list
lives below them so that the loader can check a table without importing the engine. A test keeps the two equal.
"""

from __future__ import annotations

PATTERN_NAMES = frozenset({
    # analysis/rules/patterns.py
    "general-keyword",
    "boolean-mask-index",
    "boolean-mask-assignment",
    "integer-tensor-index",
    "integer-tensor-index-assignment",
    # analysis/rules/shapes.py
    "rms-norm",
    "scaled-dot-product-attention",
    "scaled-masked-softmax",
    "add-softmax-dropout",
    "add-layer-norm",
    "group-norm-silu",
    "transpose-reshape",
    "tensor-to-python-scalar",
    "swiglu",
    "geglu",
    "rotary-embedding",
    "matmul-add",
    "mul-mul-add",
    "grouped-matmul-loop",
    "function-name",
    "function-signature",
    "class-name",
    "class-signature",
    "bert-self-attention",
    # analysis/rules/class_name_dispatch.py
    "layer-class-name-branch",
    "layer-parameter-inplace-init",
    # analysis/rules/pitfalls.py
    "device-capability-unpacked",
    "device-properties-version",
    # analysis/rules/keras_model.py and keras_training.py (TensorFlow structure, issue 21)
    "keras-functional-model",
    "keras-sequential-model",
    "keras-compile",
    "keras-fit",
    "keras-summary",
    "keras-evaluate",
    "keras-to-categorical",
    # analysis/rules/loader_dataset.py and dropout2d_input.py (MindSpore route, issue 17)
    "loader-dataset-size",
    "dropout2d-input",
    "dropout2d-function-input",
    # analysis/rules/numpy_index.py (MindSpore route, issue 17: siamese_network)
    "numpy-integer-index",
    "numpy-array-index",
    # analysis/rules/tf_data.py
    "tf-data-from-tensor-slices",
    # analysis/rules/format_spec.py
    "tensor-format-spec",
    # analysis/rules/tf_custom_loop.py
    "keras-optimizer",
    "keras-loss-object",
    "keras-training-argument",
    "keras-metric",  # analysis/rules/tf_metrics.py
    # analysis/rules/tf_module_names.py and tf_loss_order.py
    "tf-version",
    "tf-newaxis",
    "keras-logits-loss",
    "keras-input-size",  # analysis/rules/keras_data_sizes.py
    # analysis/rules/phase_step.py, parameter_values.py (MindSpore route, issue 17: user-shaped programs)
    "phase-training-step",
    "parameter-inplace-fill",
    "linear-size-attribute",
    "random-generator",  # analysis/rules/random_generator.py (MindSpore route, issue 17: seeded draws)
    "unused-torch-import",  # analysis/rules/unused_torch_imports.py (MindSpore route, issue 17: no torch left)
})
