import torch
torch.cuda.synchronize()  # ascend-migrate: ignore
torch.cuda.empty_cache()  # ascend-migrate: ignore[NPU101]
