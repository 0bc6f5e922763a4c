"""Reference values for test_optimizer from PyTorch (run with /usr/bin/python3, which has torch).

Reads one JSON request on stdin, writes one JSON answer on stdout:
* {"kind": "sgd"|"adamw", "p0": [...], "grads": [[...], ...], "lrs": [...], hyper-parameters}
  -> {"params": [...]}: the parameters after len(grads) torch.optim steps (float32);
* {"kind": "cosine", "peak": p, "min": m, "tmax": T}
  -> {"lrs": [...]}: CosineAnnealingLR's learning rate after 0..T scheduler steps.
"""
import json
import sys

import torch


def optimizer_steps(req):
    p = torch.nn.Parameter(torch.tensor(req["p0"], dtype=torch.float32))
    if req["kind"] == "sgd":
        opt = torch.optim.SGD([p], lr=req["lrs"][0], momentum=req["momentum"],
                              weight_decay=req["weight_decay"])
    else:
        opt = torch.optim.AdamW([p], lr=req["lrs"][0], betas=(req["beta1"], req["beta2"]),
                                eps=req["eps"], weight_decay=req["weight_decay"])
    for g, lr in zip(req["grads"], req["lrs"]):
        for group in opt.param_groups:
            group["lr"] = lr
        p.grad = torch.tensor(g, dtype=torch.float32)
        opt.step()
    return {"params": p.detach().tolist()}


def cosine(req):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=req["peak"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=req["tmax"],
                                                       eta_min=req["min"])
    lrs = []
    for _ in range(req["tmax"] + 1):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return {"lrs": lrs}


def main():
    req = json.load(sys.stdin)
    out = cosine(req) if req["kind"] == "cosine" else optimizer_steps(req)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
