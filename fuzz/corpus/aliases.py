from torch import cuda as tc
import torch.cuda
def f(torch):
    return torch.cuda.synchronize()
tc.synchronize()
