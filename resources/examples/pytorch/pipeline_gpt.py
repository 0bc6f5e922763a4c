#!/usr/bin/env python3
"""Pipeline-parallel training of a character-level GPT over torch.distributed send/recv.

Tessera launches this as a user program (one process per rank, see pipeline_gpt.json); each
rank builds only the layers of its pipeline stage, exactly the layer ranges of the layout drawn
in the designer (tessera.layout()["stages"]), and passes activations forward and their gradients
backward with point-to-point send/recv. gloo on CPU, nccl when the ranks have GPUs.

The layer list is the one Tessera's designer uses for a GPT, so a drawn stage range means the
same layers here (n = blocks, n + 3 layers; layer ranges are inclusive, lastLayer -1 = the end):

    0 = embedding (token + position), 1..n = block0..block{n-1}, n+1 = ln_f, n+2 = head

A block is a pre-LayerNorm transformer block (causal self-attention, GELU MLP), no dropout.

Model size: tessera.layout()["modelConfig"] (the spec's model.config), with Tessera's keys
(dim, blocks, heads, context, vocabSize, mlpDim), Hugging Face GPT-2 config.json keys (n_embd,
n_layer, n_head, n_positions / n_ctx, vocab_size, n_inner) or LLaMA-style keys (hidden_size,
num_hidden_layers, num_attention_heads, max_position_embeddings, intermediate_size); only the
shape is taken, the block is always the GPT-2-style one above. A command-line flag (--dim ...)
wins over the config; what neither sets has the small CPU defaults (dim 64, 4 blocks, 4 heads,
context 32, MLP 4 x dim). The vocabulary is the text's characters (vocabSize 0); a larger
vocabSize only adds unused rows. A model over --max-params parameters (default 50M; an imported
LLaMA-70B config, say) is refused with exit status 2, unless --shrink is given: then dim,
heads, mlpDim and context become the command line's values (or the defaults above) and the
vocabulary the text's characters, keeping the block count, so the layer list and the drawn
stages stay the same.

Data: windows of context + 1 characters of a text file (--text, else the spec's dataset.path,
else Perl's perldiag.pod), from its first 90%; the last 10% gives the test loss printed at the
end. Step s draws training.globalBatch window starts from a generator seeded with (seed, s), so
every rank and every layout sees the same batch. Data-parallel replica d (its index in each
stage's "ranks") takes rows [d B/D, (d+1) B/D) of it, split into layout.microBatches equal
micro-batches.

Schedules (layout.schedule): "gpipe" runs every micro-batch's forward, then every backward;
"1f1b" (the default) runs min(PP - stage - 1, M) forwards, then alternates one forward and one
backward, then the remaining backwards, so a stage holds at most PP - stage activations. Sends
are asynchronous (isend, waited at the end of the step) and receives blocking, which cannot
deadlock for either schedule. Each micro-batch's loss is the mean over its tokens; gradients
are accumulated as loss / M and averaged over each stage's data-parallel group (all-reduce), so
the update is that of the mean loss over the global batch. Optimizer: training.optimizer
("adamw" by default here, or "sgd" with momentum), learningRate, weightDecay, warm-up + cosine
schedule (training.lrSchedule, warmupSteps, minLearningRate) and gradClip (global norm over all
stages) as Tessera's built-in trainer defines them. Training fields that are 0 or empty (every
field is present in the layout file) count as not set.

Reference mode: --reference runs the same model, seed, batches and micro-batch accumulation in
one process without torch.distributed: all layers in one stage, D x M micro-batches of the same
size in the same order. Every layer's weights are drawn after torch.manual_seed(seed * 1000 +
layer index), so a stage starts from exactly the weights of the one-process model; with float32
and the same optimizer math the per-step losses of a pipeline run of any stage split agree with
it to about 1e-7 (on CPU bit for bit without data parallelism, whose all-reduce sums in another
order). check_pipeline_gpt.py (next to this file) runs both and compares them:

    /usr/bin/python3 check_pipeline_gpt.py                   # every case, a table, exit 1 on a miss
    tessera-ctl run pipeline_gpt.json                        # through Tessera

By hand, one process per rank: RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT and
TESSERA_LAYOUT_FILE (a layout file as Tessera writes it, see README.md). Without a layout file
it is data parallel over WORLD_SIZE ranks, one stage holding every layer.

Reports: the last stage's first data-parallel rank prints `@tessera` records (tessera.perf)
with loss, lr, samples_per_s, tokens_per_s, step_ms, compute_ms, comm_ms (data-parallel
all-reduces, with DP > 1) and bubble_ms (time blocked on send/recv: pipeline bubble and
transfers, with PP > 1), and test_loss once at the end; every rank prints one
"rank R: stage S layers A..B" line at the start. Checkpoints: every
checkpoint.everySteps (or --checkpoint-every) steps and at the end, the first data-parallel rank
of each stage writes step-N/layers-A-B.pt into TESSERA_CHECKPOINT_DIR (weights and optimizer
state by layer, so a run can resume with another stage split), then rank 0 writes manifest.json;
TESSERA_RESUME_FROM resumes. For several machines put checkpoint.dir on shared storage.

A layout or configuration this program cannot run (stages that do not cover the layer list in
order, tensorParallel > 1, a world size other than dataParallel x stages, a batch the
micro-batches do not divide, a string where a number belongs ...) ends every rank with exit
status 2 and a message naming the field, before any rank connects to another.
"""

import argparse
import datetime
import json
import math
import numbers
import os
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

DEFAULT_TEXT = "/usr/share/perl/5.36.0/pod/perldiag.pod"  # Debian's perl-modules
DEFAULT_MODEL = {"dim": 64, "blocks": 4, "heads": 4, "context": 32, "mlp_dim": 0, "vocab_size": 0}
# Our name -> the modelConfig keys that give it, first found wins: Tessera's, GPT-2's, LLaMA's.
MODEL_KEYS = {
    "dim": ("dim", "n_embd", "hidden_size"),
    "blocks": ("blocks", "n_layer", "num_hidden_layers"),
    "heads": ("heads", "n_head", "num_attention_heads"),
    "context": ("context", "n_positions", "n_ctx", "max_position_embeddings"),
    "vocab_size": ("vocabSize", "vocab_size"),
    "mlp_dim": ("mlpDim", "n_inner", "intermediate_size"),
}
CHECKPOINT_FORMAT = "pipeline_gpt"


class ConfigError(Exception):
    """A layout, configuration or flag this program cannot run: exit status 2."""


# ----------------------------------------------------------------------------------------------
# Reading the layout, the model config and the training section


def whole(value, where, *, strings=False):
    """value as an int; a string of digits only where strings (protobuf's int64 in JSON)."""
    if isinstance(value, bool):
        raise ConfigError("%s is %s: it must be a whole number" % (where, json.dumps(value)))
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if strings and isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
    raise ConfigError("%s is %s: it must be a whole number" % (where, json.dumps(value)))


def real(value, where):
    if isinstance(value, str):  # protobuf's JSON writes non-finite doubles as strings
        try:
            value = float(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ConfigError("%s is %s: it must be a number" % (where, json.dumps(value)))
    if not math.isfinite(value):
        raise ConfigError("%s is %s: it must be a finite number" % (where, value))
    return float(value)


def section(layout, key):
    value = layout.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError("layout %s is %s: it must be an object" % (key, json.dumps(value)))
    return value


def layer_names(blocks):
    return ["embedding"] + ["block%d" % i for i in range(blocks)] + ["ln_f", "head"]


def describe_layers(blocks):
    return "0 = embedding, 1..%d = block0..block%d, %d = ln_f, %d = head" % (
        blocks, blocks - 1, blocks + 1, blocks + 2)


def param_count(m):
    """Parameters of the model m (dict of dim, blocks, heads, context, mlp_dim, vocab)."""
    c, f, v = m["dim"], m["mlp_dim"], m["vocab"]
    block = 4 * c + (3 * c * c + 3 * c) + (c * c + c) + (c * f + f) + (f * c + c)
    return (v + m["context"]) * c + m["blocks"] * block + 2 * c + c * v


def model_from(config, args, chars):
    """The model's shape from modelConfig and the flags; chars: the text's distinct characters."""
    if not isinstance(config, dict):
        raise ConfigError("layout modelConfig is %s: it must be an object" % json.dumps(config))
    m, source = {}, {}
    for name, keys in MODEL_KEYS.items():
        flag = getattr(args, name)
        if flag is not None:
            m[name], source[name] = flag, "--" + name.replace("_", "-")
            continue
        for key in keys:
            if config.get(key) is not None:  # GPT-2's n_inner is null: 4 x n_embd
                m[name] = whole(config[key], "modelConfig." + key)
                source[name] = "modelConfig." + key
                break
        else:
            m[name], source[name] = DEFAULT_MODEL[name], "the default"
    if m["mlp_dim"] == 0:
        m["mlp_dim"] = 4 * m["dim"]
    m["vocab"] = m["vocab_size"] if m["vocab_size"] > 0 else len(chars)

    n = param_count(m)
    if n > args.max_params and args.shrink:
        big = n
        for name in ("dim", "heads", "context", "mlp_dim"):
            flag = getattr(args, name)
            m[name] = flag if flag is not None else DEFAULT_MODEL[name]
            source[name] = "--shrink"
        m["mlp_dim"] = m["mlp_dim"] or 4 * m["dim"]
        m["vocab_size"], m["vocab"], source["vocab_size"] = 0, len(chars), "--shrink"
        n = param_count(m)
        print("pipeline_gpt: --shrink: the configured model has %d parameters, more than "
              "--max-params %d; trained shrunk to dim %d, heads %d, context %d, mlpDim %d, "
              "vocab %d, keeping its %d blocks (%d parameters)" % (
                  big, args.max_params, m["dim"], m["heads"], m["context"], m["mlp_dim"],
                  m["vocab"], m["blocks"], n), flush=True)

    for name, low in (("dim", 1), ("blocks", 1), ("heads", 1), ("context", 1), ("mlp_dim", 1),
                      ("vocab_size", 0)):
        if m[name] < low:
            raise ConfigError("%s is %d: it must be at least %d" % (source[name], m[name], low))
    if m["dim"] % m["heads"]:
        raise ConfigError("%s (%d) is not divisible by %s (%d): the width must split into "
                          "equal heads" % (source["dim"], m["dim"], source["heads"], m["heads"]))
    if 0 < m["vocab_size"] < len(chars):
        raise ConfigError("%s is %d but the text has %d distinct characters: use 0 (the text's "
                          "characters) or at least %d" % (
                              source["vocab_size"], m["vocab_size"], len(chars), len(chars)))
    if n > args.max_params:
        raise ConfigError(
            "the model (dim %d, %d blocks, %d heads, mlpDim %d, context %d, vocab %d) has %d "
            "parameters, more than --max-params %d: raise --max-params, or pass --shrink to "
            "train it at dim %d / heads %d / context %d with the same %d blocks" % (
                m["dim"], m["blocks"], m["heads"], m["mlp_dim"], m["context"], m["vocab"], n,
                args.max_params, args.dim or DEFAULT_MODEL["dim"],
                args.heads or DEFAULT_MODEL["heads"], args.context or DEFAULT_MODEL["context"],
                m["blocks"]))
    m["params"] = n
    return m


def training_from(layout, args):
    """Optimisation settings: a flag, else the layout's training section, else the default."""
    tr = section(layout, "training")
    ck = section(layout, "checkpoint")

    def get(flag, key, kind, default, sec=tr, where="training"):
        if flag is not None:
            return flag
        value = sec.get(key)
        if value is None:
            return default
        where = "%s.%s" % (where, key)
        if kind == "int":
            value = whole(value, where, strings=True)
        elif kind == "real":
            value = real(value, where)
        elif not isinstance(value, str):
            raise ConfigError("%s is %s: it must be a string" % (where, json.dumps(value)))
        return value if value not in (0, "") else default

    t = {}
    t["optimizer"] = get(args.optimizer, "optimizer", "str", "adamw").lower()
    if t["optimizer"] not in ("adamw", "sgd"):
        raise ConfigError("training.optimizer is %s: use \"adamw\" or \"sgd\"" %
                          json.dumps(t["optimizer"]))
    t["global_batch"] = get(args.global_batch, "globalBatch", "int", 16)
    t["max_steps"] = get(args.max_steps, "maxSteps", "int", 200)
    t["lr"] = get(args.lr, "learningRate", "real", 3e-3 if t["optimizer"] == "adamw" else 0.05)
    t["min_lr"] = get(None, "minLearningRate", "real", 0.0)
    t["lr_schedule"] = get(None, "lrSchedule", "str", "constant")
    t["warmup"] = get(None, "warmupSteps", "int", 0)
    t["weight_decay"] = get(args.weight_decay, "weightDecay", "real", 0.0)
    t["momentum"] = get(args.momentum, "momentum", "real", 0.9)
    t["betas"] = (get(None, "beta1", "real", 0.9), get(None, "beta2", "real", 0.999))
    t["eps"] = get(None, "eps", "real", 1e-8)
    t["grad_clip"] = get(args.grad_clip, "gradClip", "real", 0.0)
    t["seed"] = get(args.seed, "seed", "int", 1)
    t["log_every"] = get(args.log_every, "logEvery", "int", 1)
    t["checkpoint_every"] = get(args.checkpoint_every, "everySteps", "int", 0, ck, "checkpoint")
    t["checkpoints"] = not args.no_checkpoint and not ck.get("disabled", False)

    for key, name in (("global_batch", "training.globalBatch / --global-batch"),
                      ("max_steps", "training.maxSteps / --max-steps"),
                      ("log_every", "training.logEvery / --log-every")):
        if t[key] < 1:
            raise ConfigError("%s is %d: it must be at least 1" % (name, t[key]))
    if not t["lr"] > 0:
        raise ConfigError("training.learningRate / --lr is %g: it must be positive" % t["lr"])
    if not 0 <= t["min_lr"] <= t["lr"]:
        raise ConfigError("training.minLearningRate is %g: it must be between 0 and the "
                          "learning rate %g" % (t["min_lr"], t["lr"]))
    if t["lr_schedule"] not in ("constant", "cosine"):
        raise ConfigError("training.lrSchedule is %s: use \"constant\" or \"cosine\"" %
                          json.dumps(t["lr_schedule"]))
    for key, name in (("warmup", "training.warmupSteps"), ("grad_clip", "training.gradClip"),
                      ("weight_decay", "training.weightDecay"), ("momentum", "training.momentum"),
                      ("checkpoint_every", "checkpoint.everySteps")):
        if t[key] < 0:
            raise ConfigError("%s is %g: it cannot be negative" % (name, t[key]))
    if not 0 < t["eps"] or not all(0 <= b < 1 for b in t["betas"]):
        raise ConfigError("training.beta1 and beta2 must be in [0, 1) and eps positive")
    return t


def stages_from(layout, n_layers, blocks):
    """The stages as (first, last, ranks), checked to cover layers 0..n_layers-1 in order."""
    what = "the model has %d layers (%s)" % (n_layers, describe_layers(blocks))
    dp = whole(layout.get("dataParallel", 1), "layout dataParallel")
    if dp < 1:
        raise ConfigError("layout dataParallel is %d: it must be at least 1" % dp)
    tp = whole(layout.get("tensorParallel", 1), "layout tensorParallel")
    if tp > 1:
        raise ConfigError("layout tensorParallel is %d: this example has no tensor parallelism; "
                          "draw the layout with tensorParallel 1 (pipeline stages x data "
                          "parallel)" % tp)
    raw = layout.get("stages")
    if not isinstance(raw, list) or not raw:
        raise ConfigError("layout stages is %s: it must be a non-empty list" % json.dumps(raw))
    pp = whole(layout.get("pipelineParallel", len(raw)), "layout pipelineParallel")
    if pp != len(raw):
        raise ConfigError("layout pipelineParallel is %d but stages lists %d stages" %
                          (pp, len(raw)))
    world = dp * pp
    stated = whole(layout.get("worldSize", world), "layout worldSize")
    if stated != world:
        raise ConfigError("layout worldSize is %d but dataParallel %d x %d stages = %d ranks" %
                          (stated, dp, pp, world))

    stages, expected, seen = [], 0, {}
    for k, st in enumerate(raw):
        where = "layout stages[%d]" % k
        if not isinstance(st, dict):
            raise ConfigError("%s is %s: it must be an object" % (where, json.dumps(st)))
        if "stage" in st and whole(st["stage"], where + ".stage") != k:
            raise ConfigError("%s.stage is %s: stages must be listed in order 0..%d" %
                              (where, json.dumps(st["stage"]), pp - 1))
        first = whole(st.get("firstLayer", 0), where + ".firstLayer")
        last = whole(st.get("lastLayer", -1), where + ".lastLayer")
        if last == -1:
            last = n_layers - 1
        if first != expected:
            gap = ("layers %d..%d belong to no stage" % (expected, first - 1)
                   if first > expected else "it overlaps the stage before")
            raise ConfigError("%s.firstLayer is %d but the stage before ends at layer %d (%s): "
                              "stages must cover the layer list in order, each starting where "
                              "the one before ends; %s" % (where, first, expected - 1, gap, what))
        if last < first:
            raise ConfigError("%s holds no layer (firstLayer %d, lastLayer %d): give every stage "
                              "at least one layer" % (where, first, last))
        if last >= n_layers:
            raise ConfigError("%s.lastLayer is %d: %s; was the layout drawn for another model?" %
                              (where, last, what))
        ranks = st.get("ranks")
        if ranks is None:  # Megatron's order, TP 1: rank = dp * PP + stage
            ranks = [d * pp + k for d in range(dp)]
        if not isinstance(ranks, list) or len(ranks) != dp:
            raise ConfigError("%s.ranks is %s: it must list dataParallel = %d ranks" %
                              (where, json.dumps(ranks), dp))
        ranks = [whole(r, where + ".ranks") for r in ranks]
        for r in ranks:
            if not 0 <= r < world:
                raise ConfigError("%s.ranks has rank %d, outside 0..%d" % (where, r, world - 1))
            if r in seen:
                raise ConfigError("rank %d is in %s and in layout stages[%d]: every rank holds "
                                  "one stage" % (r, where, seen[r]))
            seen[r] = k
        stages.append((first, last, ranks))
        expected = last + 1
    if expected != n_layers:
        raise ConfigError("the last stage ends at layer %d, so layers %d..%d belong to no stage: "
                          "%s; was the layout drawn for another model?" %
                          (expected - 1, expected, n_layers - 1, what))
    return stages, dp


def schedule_from(layout, args):
    micro = args.micro_batches
    if micro is None:
        micro = whole(layout.get("microBatches", 1), "layout microBatches")
    if micro < 1:
        raise ConfigError("layout microBatches / --micro-batches is %d: it must be at least 1" %
                          micro)
    sched = args.schedule if args.schedule is not None else layout.get("schedule", "1f1b")
    if not isinstance(sched, str):
        raise ConfigError("layout schedule is %s: use \"1f1b\" or \"gpipe\"" % json.dumps(sched))
    sched = sched.lower().replace("pipeline_schedule_", "") or "1f1b"
    if sched == "unspecified":
        sched = "1f1b"
    if sched not in ("1f1b", "gpipe"):
        raise ConfigError("layout schedule is %s: use \"1f1b\" or \"gpipe\"" % json.dumps(sched))
    return micro, sched


def load_text(layout, args):
    path = args.text
    if path is None:
        ds = section(layout, "dataset")
        path = ds.get("path") if ds.get("name", "") in ("", "text") else None
        path = path or DEFAULT_TEXT
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise ConfigError("cannot read the text %s (--text or dataset.path): %s" %
                          (path, e.strerror))
    return path, text



def model_fingerprint(m):
    return {k: m[k] for k in ("dim", "blocks", "heads", "context", "mlp_dim", "vocab")}


def configure(args):
    """Everything every rank must agree on, read and checked before any rank connects."""
    try:
        layout = tessera.layout()
    except (OSError, ValueError) as e:
        raise ConfigError("cannot read the layout file %s (TESSERA_LAYOUT_FILE): %s" %
                          (os.environ.get("TESSERA_LAYOUT_FILE"), e))
    if not isinstance(layout, dict):
        raise ConfigError("the layout file does not hold a JSON object")
    path, text = load_text(layout, args)
    chars = sorted(set(text))
    model = model_from(layout.get("modelConfig") or {}, args, chars)
    n_layers = model["blocks"] + 3
    stages, dp = stages_from(layout, n_layers, model["blocks"])
    micro, sched = schedule_from(layout, args)
    train = training_from(layout, args)
    gb = train["global_batch"]
    if gb % dp:
        raise ConfigError("training.globalBatch %d is not divisible by dataParallel %d: every "
                          "replica takes an equal share" % (gb, dp))
    if (gb // dp) % micro:
        raise ConfigError("layout microBatches %d does not divide the %d samples per "
                          "data-parallel replica (training.globalBatch %d / dataParallel %d): "
                          "pick a micro-batch count that divides it" % (micro, gb // dp, gb, dp))
    split = len(text) * 9 // 10
    if min(split, len(text) - split) < model["context"] + 2:
        raise ConfigError("the text %s (%d characters) is too short for context %d: its test "
                          "tenth needs more than context + 1 characters" %
                          (path, len(text), model["context"]))
    world = dp * len(stages)
    if not args.reference and tessera.world_size() != world:
        raise ConfigError("WORLD_SIZE is %d but the layout needs dataParallel %d x %d stages = "
                          "%d ranks: start one process per rank (Tessera does), or run "
                          "--reference" % (tessera.world_size(), dp, len(stages), world))
    if not args.reference and not 0 <= tessera.rank() < world:
        raise ConfigError("RANK is %d, outside 0..%d" % (tessera.rank(), world - 1))

    resume = tessera.latest_checkpoint(tessera.resume_from())
    resume_step = 0
    if resume:
        try:
            with open(os.path.join(resume, "manifest.json"), encoding="utf-8") as f:
                manifest = json.load(f)
        except (OSError, ValueError) as e:
            raise ConfigError("cannot read %s/manifest.json (TESSERA_RESUME_FROM): %s" %
                              (resume, e))
        if manifest.get("format") != CHECKPOINT_FORMAT:
            raise ConfigError("%s is not a pipeline_gpt checkpoint (manifest format %s)" %
                              (resume, json.dumps(manifest.get("format"))))
        if manifest.get("model") != model_fingerprint(model):
            raise ConfigError("the checkpoint %s was written for the model %s, this run has %s: "
                              "resume with the same model" %
                              (resume, manifest.get("model"), model_fingerprint(model)))
        if manifest.get("optimizer") != train["optimizer"]:
            raise ConfigError("the checkpoint %s was written with optimizer %s, this run uses %s"
                              % (resume, manifest.get("optimizer"), train["optimizer"]))
        resume_step = whole(manifest.get("step"), resume + "/manifest.json step")
    return {
        "text_path": path, "text": text, "chars": chars, "model": model, "stages": stages,
        "dp": dp, "micro": micro, "schedule": sched, "train": train, "resume": resume,
        "resume_step": resume_step,
    }


# ----------------------------------------------------------------------------------------------
# The model: its layers, built one by one with a seed per layer index


class Embedding(nn.Module):
    def __init__(self, vocab, context, dim):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(context, dim)
        nn.init.normal_(self.tok.weight, std=0.02)
        nn.init.normal_(self.pos.weight, std=0.02)

    def forward(self, idx):
        positions = torch.arange(idx.shape[1], device=idx.device)
        return self.tok(idx) + self.pos(positions)


class Block(nn.Module):
    """Pre-LayerNorm block: x + attn(ln1(x)), then x + mlp(ln2(x)); causal attention."""

    def __init__(self, dim, heads, mlp_dim, context, blocks):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, mlp_dim)
        self.out = nn.Linear(mlp_dim, dim)
        for lin in (self.qkv, self.proj, self.fc, self.out):
            nn.init.normal_(lin.weight, std=0.02)
            nn.init.zeros_(lin.bias)
        for lin in (self.proj, self.out):  # GPT-2: residual projections scaled by depth
            nn.init.normal_(lin.weight, std=0.02 / math.sqrt(2 * blocks))
        mask = torch.ones(context, context, dtype=torch.bool).tril()
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, x):
        b, t, c = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, h, c // h).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c // h))
        att = att.masked_fill(~self.mask[:t, :t], float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class Head(nn.Module):
    def __init__(self, dim, vocab):
        super().__init__()
        self.linear = nn.Linear(dim, vocab, bias=False)
        nn.init.normal_(self.linear.weight, std=0.02)

    def forward(self, x):
        return self.linear(x)


def build_layer(i, m, seed):
    """Layer i of [embedding, block0 .. block{n-1}, ln_f, head], the same weights anywhere."""
    torch.manual_seed(seed * 1000 + i)
    n = m["blocks"]
    if i == 0:
        return Embedding(m["vocab"], m["context"], m["dim"])
    if i <= n:
        return Block(m["dim"], m["heads"], m["mlp_dim"], m["context"], n)
    if i == n + 1:
        return nn.LayerNorm(m["dim"])
    return Head(m["dim"], m["vocab"])


class Stage(nn.Module):
    """Layers first..last (inclusive) of the layer list, applied in order."""

    def __init__(self, m, first, last, seed):
        super().__init__()
        self.first, self.last = first, last
        self.layers = nn.ModuleList(build_layer(i, m, seed) for i in range(first, last + 1))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def named_layer_parameters(self):
        """(name, parameter) with names "<global layer index>.<name in the layer>"."""
        for j, layer in enumerate(self.layers):
            for name, p in layer.named_parameters():
                yield "%d.%s" % (self.first + j, name), p


# ----------------------------------------------------------------------------------------------
# Data


def windows(data, lo, hi, count, context, seed):
    """count windows of context + 1 tokens starting in [lo, hi - context - 1]: inputs, targets."""
    g = torch.Generator().manual_seed(seed)
    starts = torch.randint(lo, hi - context, (count,), generator=g)
    w = data[starts[:, None] + torch.arange(context + 1)]
    return w[:, :-1], w[:, 1:]


# ----------------------------------------------------------------------------------------------
# Pipeline engine: one stage of one data-parallel replica (the reference: one stage, D = 1)


class Plan:
    """What this process does: which layers, which peers, which share of each batch."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


class P2P:
    """Activations forward, gradients backward: blocking recv, isend waited at wait_all()."""

    def __init__(self, plan, shape, device):
        self.plan, self.shape, self.device = plan, shape, device
        self.pending = []
        self.blocked_s = 0.0

    def _recv(self, src):
        t0 = time.perf_counter()
        buf = torch.empty(self.shape, dtype=torch.float32, device=self.device)
        dist.recv(buf, src)
        self.blocked_s += time.perf_counter() - t0
        return buf

    def _send(self, tensor, dst):
        still = []
        for work, sent in self.pending:  # let finished sends free their tensors (1F1B memory)
            if work.is_completed():
                work.wait()  # raises what went wrong, if anything did
            else:
                still.append((work, sent))
        tensor = tensor.detach().contiguous()
        self.pending = still + [(dist.isend(tensor, dst), tensor)]

    def recv_forward(self):
        return self._recv(self.plan.prev_rank)

    def recv_backward(self):
        return self._recv(self.plan.next_rank)

    def send_forward(self, tensor):
        self._send(tensor, self.plan.next_rank)

    def send_backward(self, tensor):
        self._send(tensor, self.plan.prev_rank)

    def wait_all(self):
        t0 = time.perf_counter()
        for work, _tensor in self.pending:
            work.wait()
        self.pending = []
        self.blocked_s += time.perf_counter() - t0


def micro_batches(plan, x, y):
    """This replica's share of the global batch (x, y), as plan.micro (input, target) pairs."""
    local = plan.global_batch // plan.dp_size
    rows = slice(plan.dp_index * local, (plan.dp_index + 1) * local)
    return list(zip(x[rows].split(plan.mb), y[rows].split(plan.mb)))


def train_step(stage, plan, p2p, batches, device):
    """Forward and backward of every micro-batch in the plan's schedule; returns the loss sum."""
    saved = {}
    loss_sum = torch.zeros((), dtype=torch.float64, device=device)
    vocab = plan.vocab

    def forward(m):
        nonlocal loss_sum
        xb, yb = batches[m]
        if plan.first_stage:
            inp = xb.to(device)
        else:
            inp = p2p.recv_forward().requires_grad_()
        out = stage(inp)
        if plan.last_stage:
            loss = F.cross_entropy(out.reshape(-1, vocab), yb.to(device).reshape(-1))
            loss_sum = loss_sum + loss.detach().double()
            out = loss / plan.micro
        else:
            p2p.send_forward(out)
        saved[m] = (inp, out)

    def backward(m):
        inp, out = saved.pop(m)
        if plan.last_stage:
            out.backward()
        else:
            out.backward(p2p.recv_backward())
        if not plan.first_stage:
            p2p.send_backward(inp.grad)

    if plan.schedule == "gpipe":
        for m in range(plan.micro):
            forward(m)
        for m in range(plan.micro):
            backward(m)
    else:  # 1F1B: warm-up forwards, steady one-forward-one-backward, cool-down backwards
        warm = min(plan.stages - plan.stage - 1, plan.micro)
        for m in range(warm):
            forward(m)
        for i in range(plan.micro - warm):
            forward(warm + i)
            backward(i)
        for i in range(plan.micro - warm, plan.micro):
            backward(i)
    if plan.use_dist:
        p2p.wait_all()
    return loss_sum


@torch.no_grad()
def eval_loss(stage, plan, p2p, batches, device):
    """Sum of the micro-batch mean losses of forward passes only (last stage; else 0)."""
    loss_sum = torch.zeros((), dtype=torch.float64, device=device)
    for xb, yb in batches:
        inp = xb.to(device) if plan.first_stage else p2p.recv_forward()
        out = stage(inp)
        if plan.last_stage:
            loss_sum += F.cross_entropy(out.reshape(-1, plan.vocab), yb.to(device).reshape(-1))
        else:
            p2p.send_forward(out)
    if plan.use_dist:
        p2p.wait_all()
    return loss_sum


def average_gradients(params, group, size):
    """All-reduce the stage's gradients over its data-parallel group, as one flat buffer."""
    for p in params:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
    flat = torch.cat([p.grad.reshape(-1) for p in params])
    dist.all_reduce(flat, group=group)
    flat /= size
    offset = 0
    for p in params:
        n = p.numel()
        p.grad.copy_(flat[offset:offset + n].view_as(p.grad))
        offset += n


def clip_gradients(params, max_norm, plan):
    """Scale the gradients of all stages together to global norm <= max_norm; the norm."""
    sq = torch.zeros((), dtype=torch.float64, device=params[0].device)
    for p in params:
        sq += p.grad.double().pow(2).sum()
    if plan.use_dist:  # every replica holds the same averaged gradients: count them once
        dist.all_reduce(sq)
        sq /= plan.dp_size
    norm = math.sqrt(sq.item())
    coef = max_norm / (norm + 1e-6)
    if coef < 1.0:
        for p in params:
            p.grad.mul_(coef)
    return norm


def lr_at(t, step):
    """Tessera's schedule (worker/train/lr_schedule.cpp): linear warm-up, then constant/cosine."""
    step = max(step, 1)
    if t["warmup"] > 0 and step <= t["warmup"]:
        return t["lr"] * step / t["warmup"]
    if t["lr_schedule"] == "constant":
        return t["lr"]
    progress = 1.0
    if t["max_steps"] > t["warmup"]:
        progress = min(max((step - t["warmup"]) / (t["max_steps"] - t["warmup"]), 0.0), 1.0)
    return t["min_lr"] + 0.5 * (t["lr"] - t["min_lr"]) * (1.0 + math.cos(math.pi * progress))


def make_optimizer(stage, t):
    """The optimizer and the parameter names in its order (for checkpoints by name)."""
    named = list(stage.named_layer_parameters())
    decay = [(n, p) for n, p in named if p.dim() >= 2]
    plain = [(n, p) for n, p in named if p.dim() < 2]
    groups = [{"params": [p for _, p in decay], "weight_decay": t["weight_decay"]},
              {"params": [p for _, p in plain], "weight_decay": 0.0}]
    if t["optimizer"] == "adamw":
        opt = torch.optim.AdamW(groups, lr=t["lr"], betas=t["betas"], eps=t["eps"])
    else:
        opt = torch.optim.SGD(groups, lr=t["lr"], momentum=t["momentum"])
    return opt, [n for n, _ in decay + plain]


def save_checkpoint(cfg, plan, stage, opt, names, step):
    """step-N/layers-A-B.pt from each stage's first replica, then manifest.json from rank 0."""
    folder = os.path.join(tessera.checkpoint_dir(), "step-%d" % step)
    if plan.dp_index == 0:
        os.makedirs(folder, exist_ok=True)
        sd = opt.state_dict()
        state = {
            "first": plan.first, "last": plan.last,
            "model": {n: p.detach().cpu() for n, p in stage.named_layer_parameters()},
            "opt": {names[i]: {k: v.cpu() if torch.is_tensor(v) else v for k, v in s.items()}
                    for i, s in sd["state"].items()},
        }
        name = "layers-%d-%d.pt" % (plan.first, plan.last)
        torch.save(state, os.path.join(folder, name + ".tmp"))
        os.replace(os.path.join(folder, name + ".tmp"), os.path.join(folder, name))
    if plan.use_dist:
        dist.barrier()
    if plan.rank == 0:
        manifest = {
            "format": CHECKPOINT_FORMAT, "step": step, "complete": True,
            "model": model_fingerprint(cfg["model"]), "optimizer": cfg["train"]["optimizer"],
            "stages": [[a, b] for a, b, _ in cfg["stages"]],
        }
        with open(os.path.join(folder, "manifest.json.tmp"), "w", encoding="utf-8") as f:
            json.dump(manifest, f)
        os.replace(os.path.join(folder, "manifest.json.tmp"),
                   os.path.join(folder, "manifest.json"))


def load_checkpoint(folder, stage, opt, names, device):
    """Weights and optimizer state of this stage's layers from whichever files hold them."""
    model, state = {}, {}
    for name in sorted(os.listdir(folder)):
        if name.startswith("layers-") and name.endswith(".pt"):
            part = torch.load(os.path.join(folder, name), map_location="cpu")
            model.update(part["model"])
            state.update(part["opt"])
    with torch.no_grad():
        for n, p in stage.named_layer_parameters():
            if n not in model:
                raise RuntimeError("checkpoint %s has no weights for layer parameter %s" %
                                   (folder, n))
            p.copy_(model[n].to(device))
    sd = opt.state_dict()
    sd["state"] = {i: state[n] for i, n in enumerate(names) if n in state}
    opt.load_state_dict(sd)


def run(args, cfg):
    m, t = cfg["model"], cfg["train"]
    stages, dp, micro = cfg["stages"], cfg["dp"], cfg["micro"]
    use_cuda = torch.cuda.is_available() and args.device != "cpu"
    if args.device == "cuda" and not use_cuda:
        raise ConfigError("--device cuda but torch sees no GPU")
    if args.reference:
        rank, stage_index, dp_index = 0, 0, 0
        first, last = 0, m["blocks"] + 2
        plan = Plan(rank=0, stage=0, stages=1, first=0, last=last, dp_index=0, dp_size=1,
                    micro=dp * micro, prev_rank=None, next_rank=None, use_dist=False,
                    dp_group=None)
        device = torch.device("cuda", 0) if use_cuda else torch.device("cpu")
    else:
        rank = tessera.rank()
        stage_index, dp_index = next((k, st[2].index(rank)) for k, st in enumerate(stages)
                                     if rank in st[2])
        first, last = stages[stage_index][:2]
        device = (torch.device("cuda", tessera.local_rank()) if use_cuda
                  else torch.device("cpu"))
        plan = Plan(rank=rank, stage=stage_index, stages=len(stages), first=first, last=last,
                    dp_index=dp_index, dp_size=dp, micro=micro,
                    prev_rank=stages[stage_index - 1][2][dp_index] if stage_index > 0 else None,
                    next_rank=(stages[stage_index + 1][2][dp_index]
                               if stage_index + 1 < len(stages) else None),
                    use_dist=tessera.world_size() > 1, dp_group=None)
    plan.global_batch = t["global_batch"]
    plan.mb = t["global_batch"] // (dp * micro)
    plan.vocab = m["vocab"]
    plan.schedule = cfg["schedule"]
    plan.first_stage = first == 0
    plan.last_stage = last == m["blocks"] + 2
    names = layer_names(m["blocks"])

    if rank == 0:
        print("model: dim %d, %d blocks, %d heads, mlpDim %d, context %d, vocab %d (%d "
              "characters of %s), %d parameters, %d layers (%s)" % (
                  m["dim"], m["blocks"], m["heads"], m["mlp_dim"], m["context"], m["vocab"],
                  len(cfg["chars"]), cfg["text_path"], m["params"], m["blocks"] + 3,
                  describe_layers(m["blocks"])), flush=True)
    if args.reference:
        print("reference: one process, layers 0..%d (embedding..head), %d micro-batches of %d "
              "(= dataParallel %d x microBatches %d), %s" % (
                  last, plan.micro, plan.mb, dp, micro, plan.schedule), flush=True)
    else:
        print("rank %d: stage %d layers %d..%d (%s..%s), data-parallel replica %d of %d, %s "
              "with %d micro-batches of %d" % (
                  rank, stage_index, first, last, names[first], names[last], dp_index, dp,
                  plan.schedule, micro, plan.mb), flush=True)

    if plan.use_dist:
        if use_cuda:
            torch.cuda.set_device(device)
        dist.init_process_group("nccl" if use_cuda else "gloo", init_method="env://",
                                timeout=datetime.timedelta(seconds=args.timeout))
        if dp > 1:  # every rank creates every group, in the same order
            groups = [dist.new_group(st[2]) for st in stages]
            plan.dp_group = groups[stage_index]

    stage = Stage(m, first, last, t["seed"]).to(device)
    params = [p for _, p in stage.named_layer_parameters()]
    opt, opt_names = make_optimizer(stage, t)
    p2p = P2P(plan, (plan.mb, m["context"], m["dim"]), device)

    step = 0
    if cfg["resume"]:
        load_checkpoint(cfg["resume"], stage, opt, opt_names, device)
        step = cfg["resume_step"]
        if rank == 0:
            print("resumed from %s at step %d" % (cfg["resume"], step), flush=True)
    elif tessera.resume_from() and rank == 0:
        print("no checkpoint under %s: starting afresh" % tessera.resume_from(), flush=True)

    lookup = {c: i for i, c in enumerate(cfg["chars"])}
    data = torch.tensor([lookup[c] for c in cfg["text"]], dtype=torch.long)
    split = len(data) * 9 // 10
    logger = plan.last_stage and plan.dp_index == 0
    checkpoints = t["checkpoints"] and not args.reference
    seed = t["seed"]

    while step < t["max_steps"]:
        step += 1
        t0 = time.perf_counter()
        p2p.blocked_s = 0.0
        x, y = windows(data, 0, split, t["global_batch"], m["context"], seed * 1000003 + step)
        lr = lr_at(t, step)
        for group in opt.param_groups:
            group["lr"] = lr
        opt.zero_grad(set_to_none=True)
        loss_sum = train_step(stage, plan, p2p, micro_batches(plan, x, y), device)
        t1 = time.perf_counter()
        if plan.dp_group is not None:
            average_gradients(params, plan.dp_group, dp)
            if plan.last_stage:
                dist.all_reduce(loss_sum, group=plan.dp_group)
        comm_s = time.perf_counter() - t1
        if t["grad_clip"] > 0:
            clip_gradients(params, t["grad_clip"], plan)
        opt.step()
        step_s = time.perf_counter() - t0
        if logger and (step % t["log_every"] == 0 or step == t["max_steps"]):
            loss = loss_sum.item() / (plan.micro * plan.dp_size)
            tessera.perf(step, step_s=step_s, samples=t["global_batch"],
                         compute_s=max(step_s - comm_s - p2p.blocked_s, 0.0),
                         comm_s=comm_s if plan.dp_group is not None else None,
                         bubble_s=p2p.blocked_s if plan.stages > 1 else None, loss=loss, lr=lr,
                         tokens_per_s=t["global_batch"] * m["context"] / step_s,
                         stage=plan.stage, dp_rank=plan.dp_index)
        if checkpoints and t["checkpoint_every"] and step % t["checkpoint_every"] == 0 \
                and step < t["max_steps"]:
            save_checkpoint(cfg, plan, stage, opt, opt_names, step)

    if args.eval_batches > 0:
        total = torch.zeros((), dtype=torch.float64, device=device)
        for b in range(args.eval_batches):
            x, y = windows(data, split, len(data), t["global_batch"], m["context"],
                           seed * 1000003 + 10 ** 9 + b)
            total += eval_loss(stage, plan, p2p, micro_batches(plan, x, y), device)
        if plan.dp_group is not None and plan.last_stage:
            dist.all_reduce(total, group=plan.dp_group)
        if logger:
            tessera.log(step, test_loss=total.item() /
                        (args.eval_batches * plan.micro * plan.dp_size))
    if checkpoints:
        save_checkpoint(cfg, plan, stage, opt, opt_names, step)
    if plan.use_dist:
        dist.destroy_process_group()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", action="store_true",
                    help="all layers in one process, no torch.distributed (the loss to match)")
    ap.add_argument("--text", help="UTF-8 text file (default: dataset.path, else %s)" %
                    DEFAULT_TEXT)
    g = ap.add_argument_group("model (default: modelConfig, else dim 64, 4 blocks, 4 heads, "
                              "context 32)")
    g.add_argument("--dim", type=int)
    g.add_argument("--blocks", type=int)
    g.add_argument("--heads", type=int)
    g.add_argument("--context", type=int)
    g.add_argument("--mlp-dim", dest="mlp_dim", type=int, help="0 = 4 x dim")
    g.add_argument("--vocab-size", dest="vocab_size", type=int,
                   help="0 = the text's characters")
    g.add_argument("--max-params", type=int, default=50_000_000,
                   help="refuse a larger model (default 50M) unless --shrink")
    g.add_argument("--shrink", action="store_true",
                   help="train a model over --max-params at the flags' (or default) width, "
                        "heads and context, keeping its block count")
    g = ap.add_argument_group("schedule and training (default: the layout)")
    g.add_argument("--micro-batches", type=int)
    g.add_argument("--schedule", choices=("1f1b", "gpipe"))
    g.add_argument("--global-batch", type=int, help="default 16")
    g.add_argument("--max-steps", type=int, help="default 200")
    g.add_argument("--optimizer", choices=("adamw", "sgd"), help="default adamw")
    g.add_argument("--lr", type=float, help="default 3e-3 (adamw), 0.05 (sgd)")
    g.add_argument("--weight-decay", type=float)
    g.add_argument("--momentum", type=float, help="sgd, default 0.9")
    g.add_argument("--grad-clip", type=float, help="global gradient norm; 0 = off")
    g.add_argument("--seed", type=int, help="default 1")
    g.add_argument("--log-every", type=int, help="default 1")
    g.add_argument("--eval-batches", type=int, default=4,
                   help="global batches of test windows at the end; 0 = none")
    g.add_argument("--checkpoint-every", type=int, help="default checkpoint.everySteps")
    g.add_argument("--no-checkpoint", action="store_true", help="write no checkpoints")
    ap.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds a rank waits for a peer before it fails (default 120)")
    args = ap.parse_args()
    try:
        cfg = configure(args)
        run(args, cfg)
    except ConfigError as e:
        print("pipeline_gpt: error: %s" % e, file=sys.stderr, flush=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
