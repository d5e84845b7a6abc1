import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.drop = nn.Dropout(0.25)

    def forward(self, x):
        return F.gelu(self.drop(self.fc(x)))
