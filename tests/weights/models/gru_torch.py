"""A GRU sequence model with a linear head, written for these tests."""

from torch import nn


class SequenceGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(6, 12)
        self.rnn = nn.GRU(12, 16, num_layers=2, batch_first=True)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        output, _ = self.rnn(self.encoder(x))
        return self.head(output)
