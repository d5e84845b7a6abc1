import torch

torch.cuda.synchronize()
x = torch.ones(1).cuda()
