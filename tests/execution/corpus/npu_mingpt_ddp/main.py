import os
import torch
from torch.utils.data import random_split
from torch.distributed import init_process_group, destroy_process_group
from model import GPT, GPTConfig, OptimizerConfig, create_optimizer
from trainer import Trainer, TrainerConfig
from char_dataset import CharDataset, DataConfig


def ddp_setup():
    init_process_group(backend="nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))

def get_train_objs(gpt_cfg: GPTConfig, opt_cfg: OptimizerConfig, data_cfg: DataConfig):
    dataset = CharDataset(data_cfg)
    train_len = int(len(dataset) * data_cfg.train_split)
    train_set, test_set = random_split(dataset, [train_len, len(dataset) - train_len])

    gpt_cfg.vocab_size = dataset.vocab_size
    gpt_cfg.block_size = dataset.block_size
    model = GPT(gpt_cfg)
    optimizer = create_optimizer(model, opt_cfg)
    
    return model, optimizer, train_set, test_set

# ascend-migrate corpus edit: hydra and omegaconf are not in the test venv; the values of gpt2_train_cfg.yaml, shrunk to
# run on a CPU in seconds (the yaml: 8 layers, 8 heads, 512 wide, block 128, batch 216, 4 workers, 10 epochs, save every 3).
CONFIG = {
    "data_config": {"path": "data/input.txt", "block_size": 16, "train_split": 0.9, "truncate": 1.0},
    "gpt_config": {"n_layer": 2, "n_head": 2, "n_embd": 32},
    "trainer_config": {"max_epochs": 2, "batch_size": 32, "data_loader_workers": 0, "grad_norm_clip": 1.0,
                       "snapshot_path": "gpt_snapshot.pt", "save_every": 1, "use_amp": True},
    "optimizer_config": {"weight_decay": 0.1, "learning_rate": 0.0003},
}


def main(cfg=CONFIG):
    ddp_setup()

    gpt_cfg = GPTConfig(**cfg['gpt_config'])
    opt_cfg = OptimizerConfig(**cfg['optimizer_config'])
    data_cfg = DataConfig(**cfg['data_config'])
    trainer_cfg = TrainerConfig(**cfg['trainer_config'])

    model, optimizer, train_data, test_data = get_train_objs(gpt_cfg, opt_cfg, data_cfg)
    trainer = Trainer(trainer_cfg, model, optimizer, train_data, test_data)
    trainer.train()

    destroy_process_group()


if __name__ == "__main__":
    main()
