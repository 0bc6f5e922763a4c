#!/usr/bin/env python3
"""Data-parallel training of an MLP on Fashion-MNIST with PyTorch DDP, launched by Tessera.

Runs as one process per rank, started by Tessera's mpirun or by torchrun: both set RANK,
WORLD_SIZE, LOCAL_RANK, MASTER_ADDR and MASTER_PORT, which init_process_group("env://") reads.
gloo on CPU, nccl when the rank has a GPU. Reports loss, throughput and test accuracy through
the `tessera` module (plain `@tessera {json}` lines), checkpoints every epoch into
TESSERA_CHECKPOINT_DIR and resumes from TESSERA_RESUME_FROM.

    torchrun --nproc_per_node 2 ddp_fashion_mnist.py --epochs 2     # by hand
    tessera-ctl run ddp_fashion_mnist.json                           # through Tessera

Rank 0 writes the checkpoints; every rank reads the one it resumes from, so for a job over
several machines put checkpoint.dir on storage they share.
"""

import argparse
import gzip
import json
import os
import struct
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

try:
    import tessera
except ImportError:  # run outside Tessera: the module sits in the source tree's worker/python
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../worker/python"))
    import tessera

DATA = "/usr/share/datasets/fashion-mnist"  # Debian's dataset-fashion-mnist


def read_idx(path):
    """An IDX file (gzip) as a uint8 tensor of its shape (LeCun's MNIST format)."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    _zero, dtype, ndim = struct.unpack(">HBB", data[:4])
    if dtype != 0x08:
        raise ValueError("%s: element type 0x%02x is not unsigned bytes" % (path, dtype))
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return torch.frombuffer(bytearray(data[4 + 4 * ndim:]), dtype=torch.uint8).reshape(dims)


def load(split, folder):
    prefix = "train" if split == "train" else "t10k"
    x = read_idx(os.path.join(folder, prefix + "-images-idx3-ubyte.gz")).float().div_(255.0)
    y = read_idx(os.path.join(folder, prefix + "-labels-idx1-ubyte.gz")).long()
    return (x.reshape(len(x), -1) - 0.2860) / 0.3530, y  # Fashion-MNIST mean and std


class Mlp(nn.Module):
    def __init__(self, hidden=(256, 128)):
        super().__init__()
        sizes = (784,) + tuple(hidden) + (10,)
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i + 1 < len(self.layers):
                x = F.relu(x)
        return x



def save_checkpoint(model, opt, epoch, next_batch, step):
    """Writes step-N/state.pt, then step-N/manifest.json (its presence marks it complete)."""
    folder = os.path.join(tessera.checkpoint_dir(), "step-%d" % step)
    os.makedirs(folder, exist_ok=True)
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               os.path.join(folder, "state.pt"))
    with open(os.path.join(folder, "manifest.json.tmp"), "w") as f:
        json.dump({"step": step, "epoch": epoch, "next_batch": next_batch, "complete": True}, f)
    os.replace(os.path.join(folder, "manifest.json.tmp"), os.path.join(folder, "manifest.json"))


def report_environment():
    names = ["RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK",
             "MASTER_ADDR", "MASTER_PORT", "OMP_NUM_THREADS", "TESSERA_JOB_ID",
             "TESSERA_LAYOUT_FILE", "TESSERA_CHECKPOINT_DIR", "TESSERA_RESUME_FROM"]
    seen = {n: os.environ.get(n) for n in names}
    seen["layout_world_size"] = tessera.layout()["worldSize"]
    seen["cwd"] = os.getcwd()
    print("tessera-env " + json.dumps(seen, sort_keys=True), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--global-batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--max-steps", type=int, default=0, help="stop after N steps (0 = no limit)")
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--report-env", action="store_true", help="print the variables this rank got")
    args = ap.parse_args()

    cuda = torch.cuda.is_available()
    dist.init_process_group("nccl" if cuda else "gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    if args.report_env:
        report_environment()
    if args.global_batch % world:
        sys.exit("--global-batch %d is not divisible by the world size %d" % (args.global_batch, world))
    local_batch = args.global_batch // world

    torch.manual_seed(args.seed)
    model = Mlp().to(device)
    ddp = nn.parallel.DistributedDataParallel(model, device_ids=[device.index] if cuda else None)
    opt = torch.optim.Adam(ddp.parameters(), lr=args.lr)
    x_train, y_train = load("train", args.data)
    x_test, y_test = load("test", args.data)

    steps_per_epoch = len(x_train) // args.global_batch
    start_epoch, start_batch, step = 0, 0, 0
    resume = tessera.latest_checkpoint(tessera.resume_from())
    if resume:
        state = torch.load(os.path.join(resume, "state.pt"), map_location=device)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        with open(os.path.join(resume, "manifest.json")) as f:
            manifest = json.load(f)
        start_epoch, start_batch, step = manifest["epoch"], manifest["next_batch"], manifest["step"]
        if start_batch >= steps_per_epoch:
            start_epoch, start_batch = start_epoch + 1, 0
        print("resumed from %s at step %d" % (resume, step), flush=True)

    for epoch in range(start_epoch, args.epochs):
        order = torch.randperm(len(x_train), generator=torch.Generator().manual_seed(args.seed + epoch))
        ddp.train()
        t0 = time.perf_counter()
        i = start_batch if epoch == start_epoch else 0
        for i in range(i, steps_per_epoch):
            idx = order[i * args.global_batch + rank * local_batch:][:local_batch]
            xb, yb = x_train[idx].to(device), y_train[idx].to(device)
            loss = F.cross_entropy(ddp(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            if step % args.log_every == 0:
                now = time.perf_counter()
                tessera.perf(step, step_s=(now - t0) / args.log_every, samples=args.global_batch,
                             loss=loss.item(), epoch=epoch)
                t0 = now
            if args.max_steps and step >= args.max_steps:
                break
        ddp.eval()
        with torch.no_grad():
            shard = slice(rank, len(x_test), world)
            logits = model(x_test[shard].to(device))
            counts = torch.tensor([(logits.argmax(1).cpu() == y_test[shard]).sum().item(),
                                   len(y_test[shard]),
                                   F.cross_entropy(logits, y_test[shard].to(device), reduction="sum").item()],
                                  dtype=torch.float64, device=device)
            dist.all_reduce(counts)
        if rank == 0:
            tessera.log(step, epoch=epoch, test_accuracy=counts[0].item() / counts[1].item(),
                        test_loss=counts[2].item() / counts[1].item())
            save_checkpoint(model, opt, epoch, i + 1, step)
        dist.barrier()
        if args.max_steps and step >= args.max_steps:
            break
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
