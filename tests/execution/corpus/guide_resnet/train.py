# The ResNet basic block with a training loop, as the MindSpore migration guide ports it from PyTorch (see
# SOURCE.md): the PyTorch side, trained for a few steps on synthetic CIFAR-shaped data.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ResidualBlock(nn.Module):
    expansion = 1

    def __init__(self, in_channel, out_channel, stride=1, downsample=None):
        super(ResidualBlock, self).__init__()
        self.conv1 = nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride, padding=1)
        self.norm1 = nn.BatchNorm2d(out_channel)
        self.conv2 = nn.Conv2d(out_channel, out_channel, kernel_size=3, padding=1)
        self.norm2 = nn.BatchNorm2d(out_channel)
        self.relu = nn.ReLU()
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.norm1(self.conv1(x)))
        out = self.norm2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        return self.relu(out + identity)


class ResNet(nn.Module):
    def __init__(self, num_classes=10):
        super(ResNet, self).__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        downsample = nn.Sequential(nn.Conv2d(16, 32, kernel_size=1, stride=2), nn.BatchNorm2d(32))
        self.layer = nn.Sequential(ResidualBlock(16, 16), ResidualBlock(16, 32, stride=2, downsample=downsample))
        self.fc = nn.Linear(32 * 16 * 16, num_classes)

    def forward(self, x):
        x = self.layer(self.stem(x))
        x = torch.flatten(x, 1)
        return self.fc(x)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
images = torch.randn(16, 3, 32, 32)
labels = torch.randint(0, 10, (16,))
loader = DataLoader(TensorDataset(images, labels), batch_size=4, shuffle=True, drop_last=True)

model = ResNet().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

model.train()
for step, (x, y) in enumerate(loader):
    x, y = x.to(device), y.to(device)
    optimizer.zero_grad()
    logits = model(x)
    loss = loss_fn(logits, y)
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    logits = model(images[:4].to(device))
    print("predicted", logits.argmax(1).tolist())
torch.save(model.state_dict(), "resnet.pth")
