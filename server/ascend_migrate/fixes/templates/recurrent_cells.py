"""Recurrent cells for any floating dtype, written into a program by the MindSpore route's fix (MS255) where the
program computes in float64: mindspore 2.10's nn.LSTMCell, nn.GRUCell and nn.RNNCell refuse any input but float32
and float16 (`_check_input_dtype` in mindspore/nn/layer/rnn_cells.py), so a model torch runs after `model.double()`
stops at its first cell.

Each class takes torch's constructor (input_size, hidden_size, bias, [nonlinearity,] device, dtype; `device` is
accepted and not used: MindSpore places tensors per process), so the fix changes only the name called, and keeps
the parameter names of both libraries (weight_ih, weight_hh, bias_ih, bias_hh: checkpoints and converted weights
load into it). The computation is torch 2.13's (the gate order
of torch.nn.LSTMCell: input, forget, cell, output; of GRUCell: reset, update, new), and, like torch's, the state
may be left out (zeros). tests/execution/test_recurrent_cells.py runs each beside torch's cell, weights copied, in
float64 and float32, with gradients. Only ops with CPU kernels for float64 in mindspore 2.10 are used.

A fix writes one class (read by name, `class_source`); it uses nothing but the `mindspore` package, which the fix
imports.
"""

import mindspore


class LSTMCell(mindspore.nn.Cell):
    """torch's LSTMCell for any floating dtype, written by ascend-migrate (mindspore.nn.LSTMCell takes float32 and
    float16 only). construct(x, hx=None) -> (h, c); hx is (h, c), zeros when left out."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.hidden_size = hidden_size
        dtype = mindspore.float32 if dtype is None else dtype
        bound = 1.0 / hidden_size ** 0.5  # torch and mindspore both draw every weight from U(-bound, bound)
        uniform = mindspore.common.initializer.Uniform(bound)
        self.weight_ih = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (4 * hidden_size, input_size), dtype))
        self.weight_hh = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (4 * hidden_size, hidden_size), dtype))
        self.bias = bias
        if bias:
            self.bias_ih = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (4 * hidden_size,), dtype))
            self.bias_hh = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (4 * hidden_size,), dtype))

    def construct(self, x, hx=None):
        unbatched = x.ndim == 1
        if unbatched:
            x = x.unsqueeze(0)
        if hx is None:
            h = mindspore.ops.zeros((x.shape[0], self.hidden_size), x.dtype)
            c = mindspore.ops.zeros((x.shape[0], self.hidden_size), x.dtype)
        else:
            h, c = hx
            if unbatched:
                h, c = h.unsqueeze(0), c.unsqueeze(0)
        gates = mindspore.ops.matmul(x, self.weight_ih.T) + mindspore.ops.matmul(h, self.weight_hh.T)
        if self.bias:
            gates = gates + self.bias_ih + self.bias_hh
        input_gate, forget_gate, cell_gate, output_gate = mindspore.ops.split(gates, self.hidden_size, axis=1)
        c = mindspore.ops.sigmoid(forget_gate) * c + mindspore.ops.sigmoid(input_gate) * mindspore.ops.tanh(cell_gate)
        h = mindspore.ops.sigmoid(output_gate) * mindspore.ops.tanh(c)
        if unbatched:
            h, c = h.squeeze(0), c.squeeze(0)
        return h, c


class GRUCell(mindspore.nn.Cell):
    """torch's GRUCell for any floating dtype, written by ascend-migrate (mindspore.nn.GRUCell takes float32 and
    float16 only). construct(x, hx=None) -> h; hx is zeros when left out."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.hidden_size = hidden_size
        dtype = mindspore.float32 if dtype is None else dtype
        bound = 1.0 / hidden_size ** 0.5  # torch and mindspore both draw every weight from U(-bound, bound)
        uniform = mindspore.common.initializer.Uniform(bound)
        self.weight_ih = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (3 * hidden_size, input_size), dtype))
        self.weight_hh = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (3 * hidden_size, hidden_size), dtype))
        self.bias = bias
        if bias:
            self.bias_ih = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (3 * hidden_size,), dtype))
            self.bias_hh = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (3 * hidden_size,), dtype))

    def construct(self, x, hx=None):
        unbatched = x.ndim == 1
        if unbatched:
            x = x.unsqueeze(0)
        if hx is None:
            h = mindspore.ops.zeros((x.shape[0], self.hidden_size), x.dtype)
        else:
            h = hx.unsqueeze(0) if unbatched else hx
        from_input = mindspore.ops.matmul(x, self.weight_ih.T)
        from_state = mindspore.ops.matmul(h, self.weight_hh.T)
        if self.bias:
            from_input = from_input + self.bias_ih
            from_state = from_state + self.bias_hh
        input_reset, input_update, input_new = mindspore.ops.split(from_input, self.hidden_size, axis=1)
        state_reset, state_update, state_new = mindspore.ops.split(from_state, self.hidden_size, axis=1)
        reset = mindspore.ops.sigmoid(input_reset + state_reset)
        update = mindspore.ops.sigmoid(input_update + state_update)
        new = mindspore.ops.tanh(input_new + reset * state_new)
        h = (1 - update) * new + update * h
        return h.squeeze(0) if unbatched else h


class RNNCell(mindspore.nn.Cell):
    """torch's RNNCell for any floating dtype, written by ascend-migrate (mindspore.nn.RNNCell takes float32 and
    float16 only). construct(x, hx=None) -> h; hx is zeros when left out."""

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__()
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNNCell: unknown nonlinearity {nonlinearity!r} (tanh or relu)")
        self.hidden_size = hidden_size
        self.nonlinearity = nonlinearity
        dtype = mindspore.float32 if dtype is None else dtype
        bound = 1.0 / hidden_size ** 0.5  # torch and mindspore both draw every weight from U(-bound, bound)
        uniform = mindspore.common.initializer.Uniform(bound)
        self.weight_ih = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (hidden_size, input_size), dtype))
        self.weight_hh = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (hidden_size, hidden_size), dtype))
        self.bias = bias
        if bias:
            self.bias_ih = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (hidden_size,), dtype))
            self.bias_hh = mindspore.Parameter(mindspore.common.initializer.initializer(uniform, (hidden_size,), dtype))

    def construct(self, x, hx=None):
        unbatched = x.ndim == 1
        if unbatched:
            x = x.unsqueeze(0)
        if hx is None:
            h = mindspore.ops.zeros((x.shape[0], self.hidden_size), x.dtype)
        else:
            h = hx.unsqueeze(0) if unbatched else hx
        total = mindspore.ops.matmul(x, self.weight_ih.T) + mindspore.ops.matmul(h, self.weight_hh.T)
        if self.bias:
            total = total + self.bias_ih + self.bias_hh
        h = mindspore.ops.tanh(total) if self.nonlinearity == "tanh" else mindspore.ops.relu(total)
        return h.squeeze(0) if unbatched else h
