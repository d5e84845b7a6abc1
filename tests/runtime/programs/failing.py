"""A program that fails on its own, after one optimizer step."""

import torch

weight = torch.zeros(2, requires_grad=True)
optimizer = torch.optim.SGD([weight], lr=0.1)
weight.sum().backward()
optimizer.step()
raise ValueError("the program's own error")  # PITFALL own-failure
