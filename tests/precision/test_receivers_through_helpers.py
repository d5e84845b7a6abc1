"""Receiver types through helpers of the same file (issue 15): return types of local functions and methods,
Lightning's configure_optimizers and self.optimizers(), GradScaler.scale(loss): the training-step findings appear
in real training scripts."""

TRAINING_SCRIPT = """
    import torch
    import torch.nn as nn
    import lightning.pytorch as pl


    class Net(nn.Module):
        def forward(self, x):
            return x


    def build_optimizer(model):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        return optimizer


    class Lit(pl.LightningModule):
        def configure_optimizers(self):
            optimizer = torch.optim.Adam(self.parameters())
            scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1)
            return [optimizer], [scheduler]

        def training_step(self, batch, index):
            opt = self.optimizers()
            opt.zero_grad()
            opt.step()


    def train(loader):
        model = Net()
        optimizer = build_optimizer(model)
        scaler = torch.cuda.amp.GradScaler()
        lit = Lit()
        first, schedulers = lit.configure_optimizers()
        for batch in loader:
            loss = model(batch).sum()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            optimizer.zero_grad()
            optimizer.step()
            first.step()
"""


def test_training_step_findings_follow_helpers(scan):
    findings = scan(TRAINING_SCRIPT, target="mindspore")
    structure = sorted((finding.line, finding.api.rsplit(".", 1)[-1]) for finding in findings if finding.code == "MS204")
    assert structure == [
        (25, "zero_grad"),  # opt = self.optimizers() in a LightningModule
        (26, "step"),
        (37, "backward"),  # scaler.scale(loss).backward()
        (39, "zero_grad"),  # optimizer = build_optimizer(model)
        (40, "step"),
        (41, "step"),  # first, schedulers = lit.configure_optimizers(), which returns [optimizer], [scheduler]
    ]


def test_helpers_whose_returns_disagree_give_no_type(scan):
    source = """
        import torch


        def pick(model, fast):
            if fast:
                return torch.optim.SGD(model.parameters(), lr=0.1)
            return None if model else "adam"


        def dictionary(model):
            return {"optimizer": torch.optim.Adam(model.parameters()), "monitor": "loss"}


        def train(model):
            chosen = pick(model, True)
            chosen.step()
            known = dictionary(model)["optimizer"]
            known.step()
    """
    lines = [finding.line for finding in scan(source, target="mindspore") if finding.code == "MS204"]
    assert lines == [19]
