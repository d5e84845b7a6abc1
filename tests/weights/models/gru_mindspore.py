"""The MindSpore (mindspore.nn, runs on CPU) counterpart of gru_torch.SequenceGRU, written for these tests."""

from mindspore import nn


class SequenceGRU(nn.Cell):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Dense(6, 12)
        self.rnn = nn.GRU(12, 16, num_layers=2, batch_first=True)
        self.head = nn.Dense(16, 3)

    def construct(self, x):
        output, _ = self.rnn(self.encoder(x))
        return self.head(output)
