"""The L-BFGS optimizer the MindSpore route's fix writes into a program that used `torch.optim.LBFGS` (MS235).

mindspore 2.10 has no L-BFGS optimizer for a network's Parameters (tests/execution/test_lbfgs.py notes why
mindspore.scipy.optimize.minimize is not one). This one was written from the algorithm of torch 2.13's
torch.optim.LBFGS without line search (`line_search_fn=None`, the default): the same defaults, directions, step
lengths and stopping rules, for MindSpore tensors. tests/execution/test_lbfgs.py runs this module beside torch's
optimizer on the same network and data and finds the same parameters after every step.

What follows the marker line is inserted as it stands after the program's imports (analysis/rules/lbfgs.py).
"""

import mindspore


# --- written into the program from here ---
# L-BFGS written by ascend-migrate (MS235): mindspore has no L-BFGS optimizer for a network's Parameters. It follows
# torch.optim.LBFGS without line search: the two-loop recursion over the last history_size (s, y) pairs, a first step
# of min(1, 1 / |g|_1) * lr and then steps of lr, the same stopping rules (tolerance_grad, tolerance_change,
# max_iter, max_eval). step(closure) takes a closure returning (loss, grads), as
# mindspore.value_and_grad(forward_fn, None, optimizer.parameters) makes, and returns the loss of its first call.
class LBFGS:
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if line_search_fn is not None:
            raise ValueError("this L-BFGS follows the LBFGS of torch without line search: line_search_fn must be None")
        self.parameters = list(params)
        self.lr = lr
        self.max_iter = max_iter
        self.max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.tolerance_grad = tolerance_grad
        self.tolerance_change = tolerance_change
        self.history_size = history_size
        self.state: dict = {"func_evals": 0, "n_iter": 0}  # kept across steps, as torch keeps it

    def _flat(self, grads):
        return mindspore.ops.cat([grad.reshape(-1) for grad in grads])

    def _move(self, length, direction):
        """Each parameter += length * its slice of the flat direction."""
        offset = 0
        for parameter in self.parameters:
            size = parameter.size
            parameter.set_data(parameter + direction[offset:offset + size].reshape(parameter.shape) * length)
            offset += size

    def _direction(self, flat_grad):
        """The L-BFGS direction -H g from the history (which first takes the last (s, y) pair when y.s > 1e-10)."""
        state = self.state
        y = flat_grad - state["previous_grad"]
        s = state["direction"] * state["length"]
        ys = (y * s).sum()
        if float(ys) > 1e-10:
            if len(state["y"]) == self.history_size:  # the oldest pair goes
                for name in ("y", "s", "rho"):
                    state[name].pop(0)
            state["y"].append(y)
            state["s"].append(s)
            state["rho"].append(1.0 / ys)
            state["scale"] = ys / (y * y).sum()  # the initial inverse Hessian's diagonal
        history = range(len(state["y"]))
        alphas = [None for _ in history]
        q = -flat_grad
        for i in reversed(history):
            alphas[i] = (state["s"][i] * q).sum() * state["rho"][i]
            q = q - state["y"][i] * alphas[i]
        direction = q * state["scale"]
        for i in history:
            beta = (state["y"][i] * direction).sum() * state["rho"][i]
            direction = direction + state["s"][i] * (alphas[i] - beta)
        return direction

    def step(self, closure):
        state = self.state
        first_loss, grads = closure()
        loss = float(first_loss)
        evaluations = 1
        state["func_evals"] += 1
        flat_grad = self._flat(grads)
        if float(flat_grad.abs().max()) <= self.tolerance_grad:
            return first_loss
        iteration = 0
        while iteration < self.max_iter:
            iteration += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                direction = -flat_grad
                state.update(y=[], s=[], rho=[], scale=1)
            else:
                direction = self._direction(flat_grad)
            state["previous_grad"], state["previous_loss"] = flat_grad, loss
            length = float(self.lr)
            if state["n_iter"] == 1:
                length = min(1.0, 1.0 / float(flat_grad.abs().sum())) * length
            # a tensor of the parameters' dtype: a Python float times a float64 tensor is rounded to float32 first
            length = mindspore.Tensor(length, flat_grad.dtype)
            state["direction"], state["length"] = direction, length
            if float((flat_grad * direction).sum()) > -self.tolerance_change:
                break  # the directional derivative: no descent left
            self._move(length, direction)
            if iteration == self.max_iter:
                break  # torch does not evaluate after the last iteration's move
            loss, grads = closure()
            loss = float(loss)
            flat_grad = self._flat(grads)
            evaluations += 1
            state["func_evals"] += 1
            if evaluations >= self.max_eval:
                break
            if float(flat_grad.abs().max()) <= self.tolerance_grad:
                break
            if float((direction * length).abs().max()) <= self.tolerance_change:
                break
            if abs(loss - state["previous_loss"]) < self.tolerance_change:
                break
        return first_loss
