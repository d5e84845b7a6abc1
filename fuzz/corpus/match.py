import torch
match cmd:
    case ["cuda", *rest]:
        torch.cuda.synchronize()
    case _:
        pass
