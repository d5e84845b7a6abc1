"""The `training-step` fix family: the forward pass of a PyTorch training step moved into a function that
`mindspore.value_and_grad` differentiates.

    optimizer.zero_grad()                       def forward_fn(hidden):
    hidden = repackage_hidden(hidden)               hidden = repackage_hidden(hidden)
    output, hidden = model(data, hidden)   →        output, hidden = model(data, hidden)
    loss = criterion(output, targets)               loss = criterion(output, targets)
    loss.backward()                                 return loss, (output, hidden)
    optimizer.step()                            (loss, (output, hidden)), grads = mindspore.value_and_grad(
                                                    forward_fn, None, optimizer.parameters, has_aux=True)(hidden)
                                                optimizer(grads)

This family rewrites the lines from the first statement of the forward pass to `loss.backward()` (`forward`);
the engine's rule (`analysis/rules/training_step.py`) adds the plain edits around it (the `zero_grad()` line
removed, `optimizer.step()` → `optimizer(grads)`, clipping → `mindspore.ops.clip_by_global_norm`). Names the
forward pass both reads and assigns come in as `inputs` (a function would otherwise read them unbound) and
every name it assigns goes back out (`outputs`), so the code after it sees what it saw before.

Two or more backward passes before one step (`errD_real.backward()` ... `errD_fake.backward()`; `summed` names
the earlier losses): their gradients add up in torch, and the gradient of a sum is the sum of the gradients, so
the function returns `errD_real + errD_fake` (the earlier backward lines dropped) and every loss goes back out
beside the other outputs.

A later step that reads an earlier step's model output (dcgan's G step: `output = netD(fake)` with `fake =
netG(noise)` made in the D step) gets that one model call written first in its function (`recomputed`): the same
inputs and the same, not yet updated, weights give the same values, and the gradient then reaches the model's
parameters as it did through torch's reuse. The one difference: a BatchNorm in that model updates its running
statistics once more per step (in training mode its output uses the batch's statistics, so the values are equal).

A TensorFlow tape (`tape`, the name bound by `with tf.GradientTape() as tape:`) spans from the `with` line to
`gradients = tape.gradient(loss, ...)`: the `with` body is the forward pass, kept at its own indentation (the
function replaces the `with` at the same depth), and `gradients` receives the grads. `replacements` carry the
edits other fixes make inside the moved lines (`model(x, training=True)` → `model.set_train(True)(x)`), which
would otherwise overlap this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascend_migrate.fixes.families.base import Rewrite, Span
from ascend_migrate.pickling import pickled_by_position

if TYPE_CHECKING:
    from ascend_migrate.fixes.text import LineIndex, TextEdit

INDENT = "    "


@pickled_by_position
@dataclass(frozen=True, slots=True)
class TrainingStep(Rewrite):
    """`forward`: from the first character of the forward pass's first line to the end of `loss.backward()`;
    `function`: the new function's name; `loss`: the loss variable; `inputs`/`outputs`: names passed in and
    returned beside the loss; `optimizer`: the source text of the optimizer whose `parameters` are
    differentiated; `weights`, when given, the source text of what is differentiated instead (a manual SGD step
    has no optimizer: `fc.trainable_params()`)."""

    NAME = "training-step"
    SPAN_FIELDS = ("forward",)

    forward: Span
    loss: str
    optimizer: str
    function: str = "forward_fn"
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    weights: str = ""
    summed: tuple[str, ...] = ()
    recomputed: tuple[str, ...] = ()  # statements (one line each) written first in the function: an earlier step's model output made again
    tape: str = ""
    gradients: str = "grads"
    replacements: tuple[tuple[str, str], ...] = ()  # (text, new text) in the moved lines: what other fixes change there
    skipped: tuple[str, ...] = ()  # moved lines dropped (a zero_grad() between the forward pass and backward())

    def edits(self, source: str, index: LineIndex) -> list[TextEdit]:
        from ascend_migrate.fixes.errors import FixError
        from ascend_migrate.fixes.text import TextEdit

        first, _, last, end_column = self.forward
        if not 1 <= first <= last <= index.line_count:
            raise FixError(f"training-step: lines {first}-{last} are outside the text")
        lines = [index.line_text(number) for number in range(first, last + 1)]
        backward = lines[-1].strip()
        if (f"{self.tape}.gradient(" if self.tape else ".backward()") not in backward:
            return []  # already rewritten (or edited since): nothing of this step is left to change
        indentation = lines[0][: len(lines[0]) - len(lines[0].lstrip())]
        newline = "\r\n" if source[index.line_end(first):index.line_end(first) + 2] == "\r\n" else "\n"
        parameters = ", ".join(self.inputs)
        weights = self.weights or f"{self.optimizer}.parameters"
        dropped = {f"{name}.backward()" for name in self.summed} | set(self.skipped)
        if self.tape:  # the `with` body is indented already, by the file's own unit
            body = lines[1:-1]
            for old, new in self.replacements:
                body = [line.replace(old, new) for line in body]
            inner = next((line[: len(line) - len(line.lstrip())] for line in body if line.strip()), indentation + INDENT)
        else:
            body = [INDENT + line if line.strip() else line for line in lines[:-1] if line.strip() not in dropped]
            inner = indentation + INDENT
        if self.summed:
            auxiliary = ", ".join(self.outputs) + ("," if len(self.outputs) == 1 else "")
            returned = f"return {' + '.join((*self.summed, self.loss))}, ({auxiliary})"
            received = f"({self.function}_loss, ({auxiliary})), {self.gradients}"
            options = ", has_aux=True"
        elif self.outputs:
            auxiliary = ", ".join(self.outputs) + ("," if len(self.outputs) == 1 else "")
            returned = f"return {self.loss}, ({auxiliary})"
            received = f"({self.loss}, ({auxiliary})), {self.gradients}"
            options = ", has_aux=True"
        else:
            returned, received, options = f"return {self.loss}", f"{self.loss}, {self.gradients}", ""
        text = newline.join([
            f"{indentation}def {self.function}({parameters}):",
            *[f"{indentation}{INDENT}{statement}" for statement in self.recomputed],
            *body,
            f"{inner}{returned}",
            f"{indentation}{received} = mindspore.value_and_grad({self.function}, None, {weights}{options})({parameters})",
        ])
        return [TextEdit(first, 1, last, end_column, text)]
