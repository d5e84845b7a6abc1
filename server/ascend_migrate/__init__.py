"""ascend-migrate: find and fix what must change to run PyTorch or TensorFlow code on Huawei Ascend."""

__version__ = "0.1.0"
