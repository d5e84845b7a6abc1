"""Weights and numbers (issue 19): convert PyTorch weights into a MindSpore checkpoint and compare the two models.

torch, mindspore, numpy and safetensors are optional (`pip install 'ascend-migrate[weights]'`) and are imported
only inside the functions that need them (`packages.py`), never when the CLI starts.
"""
