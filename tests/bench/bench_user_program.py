#!/usr/bin/python3
"""Benchmark (issue 18): the PyTorch DDP example launched by Tessera against torchrun by hand.

Both run the same program (resources/examples/pytorch/ddp_fashion_mnist.py, 2 ranks, gloo, one
epoch) on the same machine, one after the other, twice each, alternating. Printed side by side:

* time to first step: from the launch command to the first `@tessera` record with a loss
  (torchrun: the line's arrival on its stdout; Tessera: the worker's timestamp of the event,
  as stored in the history), in seconds;
* steady samples/s: the median of the records' samples_per_s after the first 200 steps.

Goals (issue 18): Tessera ≤ 2 s extra to the first step, ≥ 0.98 of torchrun's throughput.
Tessera's run is `tessera-ctl run` on a local cluster it starts (so worker start-up is counted
in its time to first step), and torchrun's is `python3 -m tessera.torchrun` (torchrun with
the Python 3.11 fix, see worker/python/tessera/torchrun.py).
"""

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "../.."))
SCRIPT = os.path.join(SRC, "resources/examples/pytorch/ddp_fashion_mnist.py")
ARGS = ["--epochs", "1", "--log-every", "50"]


def steady(rates):
    return statistics.median(rates) if rates else float("nan")


def run_torchrun(build):
    # As a person would start it: torchrun sets OMP_NUM_THREADS=1 itself for several ranks.
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "bin/python"), PYTHONUNBUFFERED="1")
    env.pop("OMP_NUM_THREADS", None)
    # The example writes checkpoints/ into its working directory: a scratch one, never the tree.
    work = tempfile.TemporaryDirectory(prefix="bench-torchrun-")
    t0 = time.time()
    p = subprocess.Popen([sys.executable, "-m", "tessera.torchrun", "--nproc_per_node", "2",
                          "--monitor_interval", "1", SCRIPT] + ARGS,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
                         cwd=work.name)
    first, rates = None, []
    for line in p.stdout:
        if not line.startswith("@tessera "):
            continue
        rec = json.loads(line[9:])
        if "loss" in rec and first is None:
            first = time.time() - t0
        if "samples_per_s" in rec and rec["step"] > 200:
            rates.append(rec["samples_per_s"])
    code = p.wait()
    work.cleanup()
    if code != 0:
        sys.exit("torchrun run failed with exit code %d" % p.returncode)
    return first, steady(rates), time.time() - t0


def run_tessera(build):
    data = tempfile.mkdtemp(prefix="tessera-bench-data-")
    spec = os.path.join(data, "spec.json")
    with open(spec, "w") as f:
        json.dump({"name": "bench: DDP example", "layout": {"dataParallel": 2},
                   "model": {"command": [sys.executable, SCRIPT] + ARGS}}, f)
    env = dict(os.environ, TESSERA_DATA_DIR=data, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    t0 = time.time()
    rc = subprocess.run([os.path.join(build, "bin/tessera-ctl"), "run", spec], env=env,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    total = time.time() - t0
    if rc != 0:
        sys.exit("tessera-ctl run failed with exit code %d (data folder %s)" % (rc, data))
    db = sqlite3.connect(os.path.join(data, "tessera.sqlite"))
    first, rates = None, []
    for step, time_ms, vals in db.execute("SELECT step, time_ms, vals FROM points ORDER BY seq"):
        v = json.loads(vals)
        if "loss" in v and first is None:
            first = time_ms / 1000.0 - t0
        if "samples_per_s" in v and step > 200:
            rates.append(v["samples_per_s"])
    return first, steady(rates), total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.path.join(SRC, "build"))
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    results = {"tessera": [], "torchrun": []}
    for _ in range(args.rounds):
        results["torchrun"].append(run_torchrun(args.build_dir))
        results["tessera"].append(run_tessera(args.build_dir))
    print("%-22s %14s %14s %10s" % ("launcher", "first step s", "samples/s", "total s"))
    for name, runs in results.items():
        for first, rate, total in runs:
            print("%-22s %14.2f %14.0f %10.1f" % (name, first, rate, total))
    tf = statistics.median(r[0] for r in results["tessera"])
    pf = statistics.median(r[0] for r in results["torchrun"])
    tr = statistics.median(r[1] for r in results["tessera"])
    pr = statistics.median(r[1] for r in results["torchrun"])
    print("time to first step: Tessera %.2f s, torchrun %.2f s: %+.2f s extra (goal <= 2 s)"
          % (tf, pf, tf - pf))
    print("steady throughput: Tessera / torchrun = %.3f (goal >= 0.98)" % (tr / pr))


if __name__ == "__main__":
    main()
