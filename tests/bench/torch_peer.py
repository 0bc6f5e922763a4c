#!/usr/bin/python3
# The PyTorch peer of the benchmark: the same MLP / ViT as tessera-train (engine contract, "Model
# definitions"), trained with the same SGD settings on Fashion-MNIST, one thread per process,
# single process or DistributedDataParallel over gloo. Prints one `@peer {json}` line.
import argparse
import gzip
import json
import math
import os
import socket
import statistics
import struct
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

PIXEL_MEAN, PIXEL_STD = 0.2860, 0.3530  # worker/train/fashion_mnist.h


def load_idx(path):
    """An IDX .gz file as a numpy array (uint8)."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load_train(data_dir):
    """Training images (N, 784) normalised like the engine, labels (N) int64."""
    x = load_idx(os.path.join(data_dir, "train-images-idx3-ubyte.gz")).reshape(-1, 784)
    y = load_idx(os.path.join(data_dir, "train-labels-idx1-ubyte.gz"))
    x = (torch.from_numpy(x.astype(np.float32)) / 255.0 - PIXEL_MEAN) / PIXEL_STD
    return x.contiguous(), torch.from_numpy(y.astype(np.int64))


class Block(nn.Module):
    """Pre-LN transformer block (GPT-2 style), non-causal, exact-erf GELU; x (B, T, C)."""

    def __init__(self, dim, heads, mlp_dim):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim, eps=1e-5)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim, eps=1e-5)
        self.fc = nn.Linear(dim, mlp_dim)
        self.fc2 = nn.Linear(mlp_dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        h, d = self.heads, c // self.heads
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, h, d).permute(2, 0, 3, 1, 4)  # (B, H, T, D)
        att = torch.softmax(q @ k.transpose(-2, -1) * (1.0 / math.sqrt(d)), dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        return x + self.fc2(F.gelu(self.fc(self.ln2(x))))


class ViT(nn.Module):
    """Patchify P×P → Linear(P², dim) → [cls; patches] + pos → blocks → LayerNorm → cls → head."""

    def __init__(self, patch, dim, blocks, heads, mlp_dim, classes=10):
        super().__init__()
        self.patch = patch
        n = (28 // patch) ** 2
        self.embed = nn.Linear(patch * patch, dim)
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, n + 1, dim) * 0.02)
        self.blocks = nn.Sequential(*[Block(dim, heads, mlp_dim) for _ in range(blocks)])
        self.ln_f = nn.LayerNorm(dim, eps=1e-5)
        self.head = nn.Linear(dim, classes)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0.0, 0.02)
                nn.init.zeros_(m.bias)

    def forward(self, x):  # x (B, 784)
        b, p = x.shape[0], self.patch
        g = 28 // p
        x = x.view(b, g, p, g, p).permute(0, 1, 3, 2, 4).reshape(b, g * g, p * p)
        x = torch.cat([self.cls.expand(b, -1, -1), self.embed(x)], dim=1) + self.pos
        x = self.ln_f(self.blocks(x))
        return self.head(x[:, 0])


def build(args):
    torch.manual_seed(args.seed)
    if args.model == "mlp":
        widths = [784] + args.hidden + [10]
        layers = []
        for i in range(len(widths) - 1):
            layers.append(nn.Linear(widths[i], widths[i + 1]))
            if i < len(widths) - 2:
                layers.append(nn.ReLU())
        return nn.Sequential(*layers)
    return ViT(args.patch, args.dim, args.blocks, args.heads, args.mlp_dim)


def train(args, rank, world):
    """Trains args.steps steps; returns per-window samples/s (global samples) on every rank."""
    torch.set_num_threads(1)
    x, y = load_train(args.data_dir)
    model = build(args)
    if world > 1:
        model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum,
                          weight_decay=args.weight_decay)
    gen = torch.Generator().manual_seed(args.seed)
    order = torch.randperm(x.shape[0], generator=gen)
    local = args.batch // world
    windows = []
    t0 = time.perf_counter()
    for step in range(args.steps):
        start = (step * args.batch) % (x.shape[0] - args.batch) + rank * local
        idx = order[start:start + local]
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x.index_select(0, idx)), y.index_select(0, idx))
        loss.backward()
        opt.step()
        if (step + 1) % args.window == 0:
            if not math.isfinite(loss.item()):
                raise RuntimeError("PyTorch peer diverged (loss %s)" % loss.item())
            t1 = time.perf_counter()
            windows.append(args.window * args.batch / (t1 - t0))
            t0 = t1
    return windows


def report(args, windows, world):
    steady = windows[args.skip_windows:]
    if not steady:
        raise RuntimeError("no steady-state window: steps %d, window %d, skip %d"
                           % (args.steps, args.window, args.skip_windows))
    print("@peer " + json.dumps({"model": args.model, "ranks": world, "batch": args.batch,
                                 "samples_per_s": statistics.median(steady),
                                 "windows": [round(w, 1) for w in windows],
                                 "torch": torch.__version__,
                                 "threads": torch.get_num_threads()}), flush=True)


def ddp_worker(rank, args, port):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=args.ranks)
    windows = train(args, rank, args.ranks)
    dist.barrier()
    if rank == 0:
        report(args, windows, args.ranks)
    dist.destroy_process_group()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--model", choices=["mlp", "vit"], required=True)
    p.add_argument("--data-dir", required=True)
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--batch", type=int, default=64, help="global batch")
    p.add_argument("--steps", type=int, required=True)
    p.add_argument("--window", type=int, required=True, help="steps per timing window")
    p.add_argument("--skip-windows", type=int, default=2, help="warm-up windows left out")
    p.add_argument("--hidden", type=int, nargs="*", default=[256, 128])
    p.add_argument("--patch", type=int, default=7)
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--blocks", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--mlp-dim", type=int, default=128)
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=42)
    args = p.parse_args()
    if args.batch % args.ranks:
        sys.exit("torch_peer: --batch must be divisible by --ranks")
    if args.ranks == 1:
        report(args, train(args, 0, 1), 1)
    else:
        os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
        mp.spawn(ddp_worker, args=(args, free_port()), nprocs=args.ranks, join=True)


if __name__ == "__main__":
    main()
