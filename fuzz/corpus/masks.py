import torch
scores = torch.rand(10)
kept = scores[scores > 0.5]
idx = torch.nonzero(scores)
u = torch.unique(scores)
