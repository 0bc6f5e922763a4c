#!/usr/bin/python3
"""PyTorch reference for test_layers_torch: for every case folder under argv[1] (meta.json plus
float32 .bin tensors written by the C++ test), builds the equivalent torch module in float64,
loads the C++ layer's parameters by name, runs forward and backward with the given upstream
gradient and writes ref_y.bin, ref_dx.bin and ref_grad_<param>.bin (float32, row-major)."""
import json
import math
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)


def load(d, name, shape=None):
    t = torch.from_numpy(np.fromfile(os.path.join(d, name), dtype=np.float32).astype(np.float64))
    return t.reshape(shape) if shape is not None else t


def save(d, name, t):
    t.detach().to(torch.float32).contiguous().numpy().tofile(os.path.join(d, name))


class Attention(nn.Module):
    """qkv Linear (output layout (3, H, D)), softmax(q kᵀ/√D) v, merge heads, proj Linear."""

    def __init__(self, C, H, causal):
        super().__init__()
        self.qkv = nn.Linear(C, 3 * C)
        self.proj = nn.Linear(C, C)
        self.H, self.causal = H, causal

    def forward(self, x):
        B, T, C = x.shape
        H, D = self.H, C // self.H
        q, k, v = self.qkv(x).view(B, T, 3, H, D).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(D)
        if self.causal:
            mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
            att = att.masked_fill(mask, float("-inf"))
        att = F.softmax(att, dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(B, T, C))


class Mlp(nn.Module):
    def __init__(self, C, M):
        super().__init__()
        self.fc = nn.Linear(C, M)
        self.proj = nn.Linear(M, C)

    def forward(self, x):
        return self.proj(F.gelu(self.fc(x)))


class Block(nn.Module):
    """GPT-2 pre-LN block: x + attn(ln1(x)), then + mlp(ln2(.))."""

    def __init__(self, C, H, M, causal):
        super().__init__()
        self.ln1 = nn.LayerNorm(C, eps=1e-5)
        self.attn = Attention(C, H, causal)
        self.ln2 = nn.LayerNorm(C, eps=1e-5)
        self.mlp = Mlp(C, M)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Embedding(nn.Module):
    def __init__(self, V, T, C):
        super().__init__()
        self.wte = nn.Embedding(V, C)
        self.wpe = nn.Embedding(T, C)

    def forward(self, ids):
        T = ids.shape[1]
        return self.wte(ids) + self.wpe(torch.arange(T))[None]


class PatchEmbedding(nn.Module):
    """Conv2d(1, C, P, stride P) = Linear over P×P patches; then [cls;] + pos."""

    def __init__(self, S, P, C, cls):
        super().__init__()
        self.proj = nn.Conv2d(1, C, P, stride=P)
        N = (S // P) ** 2
        if cls:
            self.cls_token = nn.Parameter(torch.zeros(C))
        self.pos_embedding = nn.Parameter(torch.zeros(N + (1 if cls else 0), C))
        self.S, self.cls = S, cls

    def forward(self, x):
        B = x.shape[0]
        t = self.proj(x.view(B, 1, self.S, self.S)).flatten(2).transpose(1, 2)
        if self.cls:
            t = torch.cat([self.cls_token.expand(B, 1, -1), t], dim=1)
        return t + self.pos_embedding[None]


class Pool(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def forward(self, x):
        return x[:, 0] if self.mode == "cls" else x.mean(dim=1)


def build(m):
    k = m["kind"]
    if k == "linear":
        return nn.Linear(m["in"], m["out"])
    if k == "relu":
        return nn.ReLU()
    if k == "gelu":
        return nn.GELU()
    if k == "layer_norm":
        return nn.LayerNorm(m["C"], eps=1e-5)
    if k == "embedding":
        return Embedding(m["V"], m["T"], m["C"])
    if k == "patch_embedding":
        return PatchEmbedding(m["S"], m["P"], m["C"], m["cls"])
    if k == "attention":
        return Attention(m["C"], m["H"], m["causal"])
    if k == "block":
        return Block(m["C"], m["H"], m["M"], m["causal"])
    if k == "pool":
        return Pool(m["mode"])
    raise ValueError("unknown kind " + k)


def run_layer(d, m):
    mod = build(m)
    named = dict(mod.named_parameters())
    for p in m["params"]:
        named[p].data.copy_(load(d, "param_" + p + ".bin").reshape(named[p].shape))
    x = load(d, "x.bin", m["x_shape"])
    if m["kind"] == "embedding":
        x = x.long()
    else:
        x.requires_grad_(True)
    y = mod(x)
    y.backward(load(d, "dy.bin", y.shape))
    save(d, "ref_y.bin", y)
    if m["kind"] != "embedding":
        save(d, "ref_dx.bin", x.grad)
    for p in m["params"]:
        save(d, "ref_grad_" + p + ".bin", named[p].grad)


def run_cross_entropy(d, m):
    logits = load(d, "x.bin", [m["rows"], m["V"]]).requires_grad_(True)
    labels = load(d, "labels.bin").long()
    losses = F.cross_entropy(logits, labels, reduction="none")
    losses.mean().backward()
    save(d, "ref_y.bin", losses)
    save(d, "ref_dx.bin", logits.grad)


def run_optimizer(d, m):
    p0 = load(d, "p0.bin")
    p = nn.Parameter(p0.clone())
    if m["kind"] == "sgd":
        opt = torch.optim.SGD([p], lr=m["lr"], momentum=m["momentum"],
                              weight_decay=m["weight_decay"])
    else:
        opt = torch.optim.AdamW([p], lr=m["lr"], betas=(m["beta1"], m["beta2"]), eps=m["eps"],
                                weight_decay=m["weight_decay"])
    grads = load(d, "grads.bin", [m["steps"], p0.numel()])
    for s in range(m["steps"]):
        p.grad = grads[s].clone()
        opt.step()
    save(d, "ref_y.bin", p.detach() - p0)


def main():
    root = sys.argv[1]
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        with open(os.path.join(d, "meta.json")) as f:
            m = json.load(f)
        if m["kind"] == "cross_entropy":
            run_cross_entropy(d, m)
        elif m["kind"] in ("sgd", "adamw"):
            run_optimizer(d, m)
        else:
            run_layer(d, m)
    print("torch_reference: %d cases" % len(os.listdir(root)))


if __name__ == "__main__":
    main()
