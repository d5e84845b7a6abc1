import os
import torch
import torch.distributed as dist

os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"
dist.init_process_group(backend="nccl")
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
