# -*- coding: latin-1 -*-
import torch
name = "café"
torch.cuda.synchronize()
