#!/usr/bin/env python3
"""A PyTorch DDP program that knows nothing of Tessera and logs as Hugging Face's Trainer does.

Tessera charts it as it is (README "Metrics from any program"): the worker reads the Trainer's
log lines on stdout,

    {'loss': 2.3101, 'grad_norm': 1.53, 'learning_rate': 4.5e-05, 'epoch': 0.12}
    {'eval_loss': 2.1, 'eval_runtime': 0.01, 'epoch': 1.0}
    {'train_runtime': 1.9, 'train_samples_per_second': 840.2, 'train_loss': 2.2, 'epoch': 2.0}

and charts loss, learning rate, gradient norm and the evaluation loss, numbering the training
lines 1, 2, 3, … (the Trainer prints no step). The same lines come from `transformers.Trainer`
with `logging_steps`; this example fits a small MLP to a noisy sine with torch alone, so it runs
with Debian's python3-torch and nothing else. Runs under Tessera's mpirun or under torchrun (both
set RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT); gloo on CPU, nccl with a GPU.

    torchrun --nproc_per_node 2 trainer_log.py --epochs 2     # by hand
    tessera-ctl run trainer_log.json                          # through Tessera
"""

import argparse
import math
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--steps-per-epoch", type=int, default=40)
    p.add_argument("--logging-steps", type=int, default=5, help="as TrainingArguments' own")
    p.add_argument("--batch", type=int, default=64, help="samples per rank and step")
    p.add_argument("--lr", type=float, default=5e-3)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def batch(generator, size):
    """x in [-π, π], y = sin(x) + noise: a batch of the task."""
    x = (torch.rand(size, 1, generator=generator) * 2 - 1) * math.pi
    return x, torch.sin(x) + 0.05 * torch.randn(size, 1, generator=generator)


def main():
    args = parse_args()
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend)
    rank, world = dist.get_rank(), dist.get_world_size()
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))) if backend == "nccl" \
        else torch.device("cpu")
    torch.manual_seed(args.seed)
    model = nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
                          nn.Linear(64, 1)).to(device)
    model = nn.parallel.DistributedDataParallel(model)
    total = args.epochs * args.steps_per_epoch
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr)
    # The Trainer's default schedule: linear decay to 0.
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: max(0.0, 1 - s / total))
    data = torch.Generator().manual_seed(args.seed + 1 + rank)
    held_out = batch(torch.Generator().manual_seed(12345), 512)
    started, losses, step = time.time(), [], 0
    for epoch in range(args.epochs):
        for _ in range(args.steps_per_epoch):
            x, y = (t.to(device) for t in batch(data, args.batch))
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            lr = sched.get_last_lr()[0]
            opt.step()
            sched.step()
            step += 1
            losses.append(loss.detach())
            if step % args.logging_steps == 0:
                mean = torch.stack(losses[-args.logging_steps:]).mean()
                dist.all_reduce(mean)
                if rank == 0:
                    print({"loss": round(mean.item() / world, 4),
                           "grad_norm": round(grad_norm.item(), 4),
                           "learning_rate": lr,
                           "epoch": round(step / args.steps_per_epoch, 4)}, flush=True)
        with torch.no_grad():
            x, y = (t.to(device) for t in held_out)
            eval_loss = nn.functional.mse_loss(model(x), y).item()
        if rank == 0:
            print({"eval_loss": round(eval_loss, 4), "eval_runtime": 0.01,
                   "epoch": float(epoch + 1)}, flush=True)
    runtime = time.time() - started
    if rank == 0:
        print({"train_runtime": round(runtime, 4),
               "train_samples_per_second": round(total * args.batch * world / runtime, 3),
               "train_loss": round(torch.stack(losses).mean().item(), 4),
               "epoch": float(args.epochs)}, flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
