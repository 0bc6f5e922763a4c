#!/usr/bin/env python3
"""A PyTorch DDP program that writes TensorBoard scalars and prints nothing Tessera reads.

Tessera charts it live from its event files (README "TensorBoard event files"): every rank gets
TESSERA_TENSORBOARD_DIR (also TENSORBOARD_LOGDIR), and the worker of rank 0 follows the
events.out.tfevents.* files written there. Rank 0 writes train/loss, train/learning_rate and
eval/accuracy while it learns to tell two interleaved spirals apart.

The scalars go through torch.utils.tensorboard.SummaryWriter when the `tensorboard` package is
installed; Debian packages no `tensorboard`, so otherwise through the standard-library writer of
Tessera's `tessera` module, which writes the same records. Runs under Tessera's mpirun or under
torchrun; gloo on CPU, nccl with a GPU.

    torchrun --nproc_per_node 2 summary_writer.py        # by hand (./runs unless the variable is set)
    tessera-ctl run summary_writer.json                   # through Tessera
"""

import argparse
import math
import os

import torch
import torch.distributed as dist
import torch.nn as nn

try:
    from torch.utils.tensorboard import SummaryWriter
except ImportError:  # no `tensorboard` package (Debian): Tessera's writer, same event files
    try:
        from tessera.tensorboard import SummaryWriter
    except ImportError:  # run outside Tessera: the module sits in the source tree
        import sys
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../worker/python"))
        from tessera.tensorboard import SummaryWriter


def spirals(generator, n):
    """n points of two interleaved spirals (class 0 and 1), with a little noise."""
    t = torch.rand(n, generator=generator) * 2 * math.pi + 0.5
    label = torch.randint(0, 2, (n,), generator=generator)
    angle = t + math.pi * label
    x = torch.stack([t * torch.cos(angle), t * torch.sin(angle)], 1) / (2 * math.pi)
    return x + 0.02 * torch.randn(n, 2, generator=generator), label


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--eval-every", type=int, default=25)
    p.add_argument("--batch", type=int, default=128, help="samples per rank and step")
    p.add_argument("--lr", type=float, default=0.01)
    args = p.parse_args()
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend)
    rank = dist.get_rank()
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))) if backend == "nccl" \
        else torch.device("cpu")
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(
        nn.Sequential(nn.Linear(2, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                      nn.Linear(128, 2)).to(device))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, args.steps)
    data = torch.Generator().manual_seed(1 + rank)
    held_out = [t.to(device) for t in spirals(torch.Generator().manual_seed(99), 2000)]
    log_dir = os.environ.get("TESSERA_TENSORBOARD_DIR", "runs")
    writer = SummaryWriter(log_dir) if rank == 0 else None
    for step in range(1, args.steps + 1):
        x, y = (t.to(device) for t in spirals(data, args.batch))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if writer:
            writer.add_scalar("train/loss", loss.item(), step)
            writer.add_scalar("train/learning_rate", sched.get_last_lr()[0], step)
        sched.step()
        if step % args.eval_every == 0 and writer:
            with torch.no_grad():
                accuracy = (model(held_out[0]).argmax(1) == held_out[1]).float().mean().item()
            writer.add_scalar("eval/accuracy", accuracy, step)
            writer.flush()
            print("step %d: wrote train/loss, train/learning_rate and eval/accuracy to %s"
                  % (step, log_dir), flush=True)
    if writer:
        writer.close()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
