import torch
loader = torch.utils.data.DataLoader(
    data, batch_size=32, num_workers=8, pin_memory=True
)
