import torch as T
device = T.device(f"cuda:{rank}" if T.cuda.is_available() else "cpu")
x = T.zeros(3, 4, device="cuda:0", requires_grad=True)
y = x.to("cuda").is_cuda
