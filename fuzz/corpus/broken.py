import torch

def broken(:
    torch.cuda.synchronize()

def fine():
    return torch.cuda.is_available()
