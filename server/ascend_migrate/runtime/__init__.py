"""The runtime check (`ascend-migrate run`): the user's program runs in a child process on CPU torch with torch_npu emulated.

Parent side (never imports torch): `launch` starts the child, `plan` tells it what to watch, `report` turns its
observations into findings. Child side (imports torch, loaded only in the child): `child`, `emulation`, `watch`.
`recorder` is shared by the child's modules and imports nothing heavy.
"""
