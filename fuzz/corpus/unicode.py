import torch

def 训练(设备):
	x = torch.zeros(1, device="cuda")  # 注释 🙂
