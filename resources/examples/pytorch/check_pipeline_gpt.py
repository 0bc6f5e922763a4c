#!/usr/bin/env python3
"""Checks pipeline_gpt.py: pipeline runs lose exactly what its one-process --reference loses.

Starts the ranks by hand, as Tessera's launcher would (RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR, MASTER_PORT and a layout file in Tessera's format in TESSERA_LAYOUT_FILE), reads
their `@tessera` records and compares each step's loss (and the final test loss) with
`pipeline_gpt.py --reference` on the same layout: |pipeline - reference| must stay within
--tolerance (1e-4) at every step. Cases: PP2 under 1F1B and GPipe, PP2 x DP2 (4 ranks), uneven
stages (the embedding alone, then the rest), PP3 with SGD, and a run resumed from a step-3
checkpoint with another stage split. Then hostile layouts, each of which must end every rank
with exit status 2 and a message naming the field, without a hang: a stage range that skips a
layer, tensorParallel 2, a string in modelConfig, micro-batches that do not divide the batch,
a world size that is not the layout's, an imported LLaMA-70B config (refused by --max-params;
trained with --shrink). Standard library only; the ranks run torch's python (--python).

    /usr/bin/python3 check_pipeline_gpt.py            # about 40 s on 2 cores; exit 1 on a miss
    /usr/bin/python3 check_pipeline_gpt.py --keep -v  # keep the ranks' logs, print them
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "pipeline_gpt.py")
TESSERA_PY = os.path.normpath(os.path.join(HERE, "../../../worker/python"))

MODEL = {"dim": 32, "blocks": 4, "heads": 4, "context": 16}  # 7 layers: 0 embedding .. 6 head
# As Tessera writes TrainingSpec: every field present, int64 fields as strings, 0 = not set.
TRAINING = {
    "epochs": 0, "maxSteps": "6", "globalBatch": 16, "optimizer": "adamw", "learningRate": 0.01,
    "momentum": 0.0, "weightDecay": 0.01, "seed": "3", "logEvery": 0, "evalEveryEpochs": 0,
    "beta1": 0.0, "beta2": 0.0, "eps": 0.0, "lrSchedule": "cosine", "warmupSteps": "2",
    "minLearningRate": 0.001, "gradClip": 0.5, "evalEverySteps": "0", "sampleChars": 0,
}
LLAMA_70B = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 8192,
    "intermediate_size": 28672, "num_attention_heads": 64, "num_hidden_layers": 80,
    "num_key_value_heads": 8, "max_position_embeddings": 4096, "vocab_size": 32000,
}
RECORD = re.compile(r"^@tessera (\{.*\})\s*$")


def make_layout(stages, dp=1, micro=4, schedule="1f1b", model=None, training=None, tp=1):
    """A layout file as Tessera writes it; stages: (firstLayer, lastLayer) per stage."""
    pp = len(stages)
    return {
        "jobId": "check", "worldSize": dp * tp * pp, "dataParallel": dp, "tensorParallel": tp,
        "pipelineParallel": pp,
        "stages": [{"stage": s, "firstLayer": a, "lastLayer": b,
                    "ranks": [(d * pp + s) * tp + t for d in range(dp) for t in range(tp)]}
                   for s, (a, b) in enumerate(stages)],
        "microBatches": micro, "schedule": schedule, "zeroStage": 0,
        "rankOrder": "rank = (dp * pipelineParallel + stage) * tensorParallel + tp",
        "nodes": [{"worker": "local", "firstRank": 0, "ranks": dp * tp * pp, "device": "cpu"}],
        "modelConfig": dict(MODEL if model is None else model),
        "training": dict(TRAINING if training is None else training),
        "dataset": {"name": "", "path": "", "randomFlip": False},
        "checkpoint": {"everySteps": 0, "dir": "", "resumeFrom": "", "disabled": False},
    }


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Runner:
    def __init__(self, args, folder):
        self.args, self.folder, self.count = args, folder, 0

    def launch(self, name, layout, ranks, extra=(), env_extra=None, reference=False):
        """Runs the ranks (or one --reference process); returns (codes, records, logs, secs)."""
        self.count += 1
        case = os.path.join(self.folder, "%02d-%s" % (self.count, re.sub(r"\W+", "_", name)))
        os.makedirs(case)
        layout_file = os.path.join(case, "layout.json")
        with open(layout_file, "w", encoding="utf-8") as f:
            json.dump(layout, f, indent=2)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("TESSERA_") and k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK")}
        env.update(PYTHONPATH=TESSERA_PY, OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1",
                   TESSERA_LAYOUT_FILE=layout_file,
                   TESSERA_CHECKPOINT_DIR=os.path.join(case, "checkpoints"))
        env.update(env_extra or {})
        cmd = [self.args.python, PROGRAM, "--device", "cpu", "--timeout", "30"] + list(extra)
        if reference:
            cmd.append("--reference")
            ranks = 1
        port = str(free_port())
        procs, outs = [], []
        start = time.monotonic()
        for r in range(ranks):
            rank_env = dict(env)
            if not reference:
                rank_env.update(RANK=str(r), WORLD_SIZE=str(ranks), LOCAL_RANK=str(r),
                                LOCAL_WORLD_SIZE=str(ranks), MASTER_ADDR="127.0.0.1",
                                MASTER_PORT=port)
            out = open(os.path.join(case, "rank%d.log" % r), "w+", encoding="utf-8")
            outs.append(out)
            procs.append(subprocess.Popen(cmd, env=rank_env, stdout=out,
                                          stderr=subprocess.STDOUT, cwd=case))
        codes, deadline = [], start + self.args.timeout
        for p in procs:
            try:
                codes.append(p.wait(timeout=max(deadline - time.monotonic(), 0.1)))
            except subprocess.TimeoutExpired:
                codes.append("hung")
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        secs = time.monotonic() - start
        records, logs = [], []
        for out in outs:
            out.seek(0)
            text = out.read()
            out.close()
            logs.append(text)
            for line in text.splitlines():
                m = RECORD.match(line)
                if m:
                    records.append(json.loads(m.group(1)))
        if self.args.verbose:
            for r, text in enumerate(logs):
                print("---- %s rank %d (exit %s)\n%s" % (name, r, codes[r], text.rstrip()))
        return codes, records, logs, secs


def losses(records):
    """{step: loss} and the test loss from the records."""
    by_step, test = {}, None
    for rec in records:
        if "loss" in rec:
            if rec["step"] in by_step:
                raise ValueError("two loss records for step %d" % rec["step"])
            by_step[rec["step"]] = rec["loss"]
        if "test_loss" in rec:
            test = rec["test_loss"]
    return by_step, test


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", default="/usr/bin/python3", help="a python with torch")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--keep", action="store_true", help="keep the runs' folder")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every rank's output")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="ppcheck-")
    runner = Runner(args, folder)
    started = time.monotonic()
    failures, summary = [], []
    references = {}
    even, uneven, pp3 = [(0, 3), (4, 6)], [(0, 0), (1, 6)], [(0, 2), (3, 4), (5, 6)]
    sgd = dict(TRAINING, optimizer="sgd", learningRate=0.2, momentum=0.9, lrSchedule="",
               warmupSteps="0")
    no_ckpt = ["--no-checkpoint"]

    def reference(layout):
        """The reference depends on dataParallel x microBatches and the training, not stages."""
        key = json.dumps([layout["dataParallel"] * layout["microBatches"],
                          layout["training"], layout["modelConfig"]], sort_keys=True)
        if key not in references:
            codes, records, logs, secs = runner.launch("reference", layout, 1, no_ckpt,
                                                       reference=True)
            if codes != [0]:
                raise SystemExit("the reference run failed (exit %s):\n%s" % (codes[0], logs[0]))
            references[key] = losses(records)
            label = "reference %s D*M=%d" % (layout["training"]["optimizer"],
                                             layout["dataParallel"] * layout["microBatches"])
            summary.append((label, 1, "-", secs, "ok"))
        return references[key]

    print("%-28s %4s  %-20s %-20s %s" % ("case", "step", "pipeline", "reference", "|diff|"))

    def compare(name, layout, extra=(), env_extra=None, first_step=1):
        ranks = layout["worldSize"]
        ref_steps, ref_test = reference(layout)
        codes, records, logs, secs = runner.launch(name, layout, ranks, extra, env_extra)
        if any(c != 0 for c in codes):
            failures.append(name)
            tails = "\n".join("rank %d (exit %s): %s" % (r, codes[r], logs[r].strip()[-600:])
                              for r in range(ranks) if codes[r] != 0)
            print("%-28s FAILED: exit codes %s\n%s" % (name, codes, tails))
            summary.append((name, ranks, "-", secs, "FAILED"))
            return
        got, test = losses(records)
        want = {s: v for s, v in ref_steps.items() if s >= first_step}
        worst, ok = 0.0, sorted(got) == sorted(want) and test is not None
        for s in sorted(want):
            diff = abs(got[s] - want[s]) if s in got else float("inf")
            worst = max(worst, diff)
            print("%-28s %4d  %-20r %-20r %.1e" % (name, s, got.get(s), want[s], diff))
        if test is not None and ref_test is not None:
            diff = abs(test - ref_test)
            worst = max(worst, diff)
            print("%-28s %4s  %-20r %-20r %.1e" % (name, "test", test, ref_test, diff))
        ok = ok and worst <= args.tolerance
        if not ok:
            failures.append(name)
        summary.append((name, ranks, "%.1e" % worst, secs, "ok" if ok else "MISMATCH"))

    def refuse(name, layout, ranks, needle, extra=no_ckpt, code=2):
        codes, _records, logs, secs = runner.launch(name, layout, ranks, extra)
        said = [line for line in logs[0].splitlines() if "error" in line]
        ok = all(c == code for c in codes) and all(needle in text for text in logs)
        print("%-28s exit %s in %.1f s: %s" % (name, codes, secs,
                                               said[0] if said else logs[0].strip()[-300:]))
        if not ok:
            failures.append(name)
        summary.append((name, ranks, "-", secs, "ok (exit 2)" if ok else "WRONG"))

    compare("PP2 1f1b", make_layout(even), no_ckpt)
    compare("PP2 gpipe", make_layout(even, schedule="gpipe"), no_ckpt)
    compare("PP2xDP2 1f1b", make_layout(even, dp=2, micro=2), no_ckpt)
    compare("PP2xDP2 gpipe", make_layout(even, dp=2, micro=2, schedule="gpipe"), no_ckpt)
    compare("PP2 uneven 1+6 1f1b", make_layout(uneven), no_ckpt)
    compare("PP3 1f1b sgd", make_layout(pp3, training=sgd), no_ckpt)
    ckpt = os.path.join(folder, "resume-source")
    compare("PP2 1f1b ckpt every 3", make_layout(even), ["--checkpoint-every", "3"],
            {"TESSERA_CHECKPOINT_DIR": ckpt})
    compare("resume step 3 as 1+6 gpipe", make_layout(uneven, schedule="gpipe"), no_ckpt,
            {"TESSERA_RESUME_FROM": os.path.join(ckpt, "step-3")}, first_step=4)

    refuse("stages skip layer 3", make_layout([(0, 2), (4, 6)]), 2, "firstLayer")
    refuse("tensorParallel 2", make_layout(even, tp=2), 4, "tensorParallel")
    refuse("modelConfig dim \"32\"", make_layout(even, model=dict(MODEL, dim="32")), 2,
           "modelConfig.dim")
    refuse("microBatches 3 of 16", make_layout(even, micro=3), 2, "microBatches")
    refuse("WORLD_SIZE 3 for PP2", make_layout(even), 3, "WORLD_SIZE")
    llama = make_layout([(0, 40), (41, 82)], model=LLAMA_70B)
    refuse("LLaMA-70B config", llama, 2, "--max-params")
    codes, records, logs, secs = runner.launch(
        "LLaMA-70B --shrink", llama, 2, no_ckpt + ["--shrink", "--max-steps", "1",
                                                   "--eval-batches", "0"])
    ok = codes == [0, 0] and len(losses(records)[0]) == 1
    shrunk = [line for line in logs[0].splitlines() if "--shrink" in line]
    print("%-28s exit %s in %.1f s: %s" % ("LLaMA-70B --shrink", codes, secs,
                                           shrunk[0] if shrunk else logs[0].strip()[-300:]))
    if not ok:
        failures.append("LLaMA-70B --shrink")
    summary.append(("LLaMA-70B --shrink (PP2)", 2, "-", secs, "ok" if ok else "FAILED"))

    print("\n%-28s %5s  %-10s %7s  %s" % ("case", "ranks", "max |diff|", "time", "result"))
    for name, ranks, worst, secs, result in summary:
        print("%-28s %5d  %-10s %6.1fs  %s" % (name, ranks, worst, secs, result))
    print("total %.1f s; runs in %s" % (time.monotonic() - started, folder))
    if args.keep or failures:
        print("kept %s" % folder)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print("FAILED: %s" % ", ".join(failures))
        sys.exit(1)
    print("all %d cases ok (tolerance %g)" % (len(summary), args.tolerance))


if __name__ == "__main__":
    main()
