import torch

def step(model, batch, optimizer):
    model.train()
    batch = batch.cuda(non_blocking=True)
    loss = model(batch).sum()
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    torch.save(model.state_dict(), "model.pt")
