"""The rule table: every rule module's declaration, in the order the walker calls their handlers.

Each module declares `RULE` (its events, pattern matchers and examples) against the API in `rules/api.py`;
adding a rule is a module and a line here. names (qualified references), methods (attributes on typed
receivers, method definitions), strings (device, backend and environment-variable literals in their roles),
imports (third-party modules), patterns (keyword arguments with no counterpart, indexing shapes), shapes
(fusable code shapes, definitions by name and signature), pitfalls (the Ascend guide's device capability and
properties pitfalls), training_step (the MindSpore route's training step), class_name_dispatch (parameters of layers picked by class name), device_choice (the device chosen once), device_placement (a statement that only places values on the device, removed), cudnn_switches (cuDNN switches set by assignment, MindSpore route), state_dict_load (a model's parameters loaded from a computed path), keras_layer_class (Keras Layer/Model subclasses as Cells), keras_data_sizes (a
Keras model class's sizes from its input's shape), keras_model
(Keras functional/Sequential models as Cells), keras_module_model (a functional model written at module level), keras_training (Keras compile/fit as mindspore.train.Model), tf_data
(tf.data from arrays as mindspore.dataset), format_spec (a format spec applied to a tensor), dropout2d_input (torch's
Dropout2d called on any rank, MindSpore route), loader_dataset (len(loader.dataset) on a fixed pipeline), tf_custom_loop
(GradientTape, tf.function and a custom loop's optimizer), tf_metrics (Keras metrics as mindspore.train metrics), tf_module_names
(tf.__version__, tf.newaxis), tf_loss_order (a Keras cross-entropy on logits and its calls' argument order), layer_call_keywords (a layer called with a
keyword its MindSpore counterpart names otherwise), phase_step (a step run only in the training phase under set_grad_enabled),
linear_sizes (an ops/nn-era Dense's in_channels/out_channels), parameter_values (a layer parameter filled in place),
random_generator (what becomes of `generator=` on torch's random calls, MindSpore route), unused_torch_imports (a torch
import nothing uses, MindSpore route), numpy_index (a tensor indexed by a NumPy integer, MindSpore route).
"""

from __future__ import annotations

from ascend_migrate.analysis.rules import (
    class_name_dispatch,
    cudnn_switches,
    device_choice,
    device_placement,
    dropout2d_input,
    format_spec,
    imports,
    keras_data_sizes,
    keras_layer_class,
    keras_model,
    keras_module_model,
    keras_training,
    layer_call_keywords,
    linear_sizes,
    loader_dataset,
    methods,
    names,
    numpy_index,
    parameter_values,
    patterns,
    phase_step,
    pitfalls,
    random_generator,
    shapes,
    state_dict_load,
    strings,
    tf_custom_loop,
    tf_data,
    tf_loss_order,
    tf_metrics,
    tf_module_names,
    training_step,
    unused_torch_imports,
)
from ascend_migrate.analysis.rules.api import Matcher, Rule

RULES: tuple[Rule, ...] = (
    imports.RULE,
    names.RULE,
    methods.RULE,
    training_step.RULE,
    phase_step.RULE,
    linear_sizes.RULE,
    parameter_values.RULE,
    class_name_dispatch.RULE,
    device_choice.RULE,
    device_placement.RULE,
    cudnn_switches.RULE,
    state_dict_load.RULE,
    strings.RULE,
    patterns.RULE,
    shapes.RULE,
    pitfalls.RULE,
    keras_layer_class.RULE,
    keras_data_sizes.RULE,
    keras_model.RULE,
    keras_module_model.RULE,
    keras_training.RULE,
    tf_data.RULE,
    format_spec.RULE,
    dropout2d_input.RULE,
    numpy_index.RULE,
    loader_dataset.RULE,
    random_generator.RULE,
    unused_torch_imports.RULE,
    layer_call_keywords.RULE,
    tf_custom_loop.RULE,
    tf_metrics.RULE,
    tf_module_names.RULE,
    tf_loss_order.RULE,
)


def _matchers(rules: tuple[Rule, ...]) -> dict[str, Matcher]:
    found: dict[str, Matcher] = {}
    for rule in rules:
        for name, matcher in rule.matchers.items():
            if name in found:
                raise ValueError(f"pattern {name!r} has two matchers (rule {rule.name!r} and another)")
            found[name] = matcher
    return found


# Pattern name → its matcher: every `match: pattern` condition in mappings/ has one here, or its entry says
# `documentation_only: true` (kb/patterns.py holds the same names for the loader, below analysis).
MATCHERS: dict[str, Matcher] = _matchers(RULES)
