"""Tessera's side of a user program: report metrics, read the drawn layout, checkpoint.

Standard library only; Tessera puts this package first on every rank's PYTHONPATH. Metrics go
to stdout as one ``@tessera {json}`` line per record (the README's "@tessera line" contract),
which the worker charts live and keeps in the job's history.

    import tessera
    for step, batch in enumerate(loader):
        ...
        tessera.log(step, loss=loss.item(), samples_per_s=rate)
    tessera.log(step, test_accuracy=acc, epoch=epoch)
"""

import json
import math
import numbers
import os
import sys
import time

__all__ = [
    "rank", "world_size", "local_rank", "log", "perf", "layout", "checkpoint_dir",
    "resume_from", "latest_checkpoint", "job_id", "stage_of", "StepTimer", "MAX_RECORD_BYTES",
]

#: The worker refuses longer records (the JSON after ``@tessera ``), see the README.
MAX_RECORD_BYTES = 16 * 1024
#: ``step`` must be a whole number in 0..2**53.
MAX_STEP = 2 ** 53
_MAX_FIELDS = 128
_MAX_NAME = 128

_layout_cache = None


def _env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def rank():
    """Global rank of this process (RANK, as torchrun sets it); 0 outside Tessera."""
    return _env_int("RANK", 0)


def world_size():
    """Number of ranks of the job (WORLD_SIZE); 1 outside Tessera."""
    return _env_int("WORLD_SIZE", 1)


def local_rank():
    """Rank of this process on its node (LOCAL_RANK): on a GPU node, the device it uses."""
    return _env_int("LOCAL_RANK", 0)


def job_id():
    """Tessera's job id (TESSERA_JOB_ID), or None outside Tessera."""
    return os.environ.get("TESSERA_JOB_ID")


def _number(name, value):
    """value as a JSON number; raises ValueError for what the worker would refuse."""
    if hasattr(value, "item") and callable(value.item):  # a one-element torch/numpy tensor
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError("tessera.log: %s=%r is not a number" % (name, value))
    value = float(value) if not isinstance(value, numbers.Integral) else int(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("tessera.log: %s=%r is not finite" % (name, value))
    return value


def _record(step, fields):
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        if isinstance(step, float) and step.is_integer():
            step = int(step)
        else:
            raise ValueError("tessera.log: step=%r must be a whole number" % (step,))
    if not 0 <= step <= MAX_STEP:
        raise ValueError("tessera.log: step=%d must be in 0..2**53" % step)
    if len(fields) > _MAX_FIELDS - 2:
        raise ValueError("tessera.log: at most %d fields per record" % (_MAX_FIELDS - 2))
    record = {"step": int(step), "rank": rank()}
    for name, value in fields.items():
        if len(name) > _MAX_NAME:
            raise ValueError("tessera.log: field name %r is longer than %d" % (name, _MAX_NAME))
        record[name] = _number(name, value)
    text = json.dumps(record, separators=(",", ":"), allow_nan=False)
    if len(text.encode()) > MAX_RECORD_BYTES:
        raise ValueError("tessera.log: the record is longer than %d bytes" % MAX_RECORD_BYTES)
    return text


def log(step, *, file=None, **metrics):
    """Prints one ``@tessera`` record for optimizer step ``step`` with this rank.

    metrics: numbers by name, e.g. ``loss=0.53`` (a one-element tensor is read with
    ``.item()``). Names the app knows: loss, test_loss, test_accuracy (0..1), epoch,
    samples_per_s, tokens_per_s, lr, step_ms, compute_ms, comm_ms, bubble_ms (milliseconds),
    mem_bytes (bytes), mfu (0..1); any other numeric name is charted too.
    Raises ValueError for a value the worker would refuse (not finite, not a number, step out
    of 0..2**53) instead of printing it.
    """
    line = "@tessera " + _record(step, metrics)
    out = file if file is not None else sys.stdout
    out.write(line + "\n")
    out.flush()
    return line


def _gpu_memory_bytes():
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    try:
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            return int(torch.cuda.max_memory_allocated())
    except Exception:  # a broken CUDA setup must not stop training
        return None
    return None


def perf(step, *, step_s, samples, compute_s=None, comm_s=None, bubble_s=None, **metrics):
    """Prints the step-time split and throughput of one step as the app's charts expect.

    step_s: wall time of the step in seconds; samples: samples this rank processed in it;
    compute_s / comm_s / bubble_s: the parts of step_s spent computing, in exposed
    communication and idle in the pipeline bubble (seconds). Adds mem_bytes (peak GPU memory)
    when torch has CUDA in use. Extra metrics are passed on as in log().
    """
    if step_s <= 0:
        raise ValueError("tessera.perf: step_s=%r must be positive" % (step_s,))
    fields = dict(metrics)
    fields["step_ms"] = step_s * 1e3
    fields["samples_per_s"] = samples / step_s
    for name, part in (("compute_ms", compute_s), ("comm_ms", comm_s), ("bubble_ms", bubble_s)):
        if part is not None:
            fields[name] = part * 1e3
    mem = _gpu_memory_bytes()
    if mem is not None and "mem_bytes" not in fields:
        fields["mem_bytes"] = mem
    return log(step, **fields)


class StepTimer:
    """Measures one step's wall time: ``with StepTimer() as t: ...`` then ``t.seconds``."""

    def __enter__(self):
        self._start = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self._start
        return False


def layout():
    """The layout drawn in the designer, as a dict (TESSERA_LAYOUT_FILE; see the README).

    Keys: jobId, worldSize, dataParallel, tensorParallel, pipelineParallel, stages (each with
    stage, firstLayer, lastLayer, ranks), microBatches, schedule ("1f1b" or "gpipe"),
    zeroStage, rankOrder, nodes, modelConfig (model.config of the spec, e.g. a Hugging Face
    config.json), training, dataset, checkpoint. Outside Tessera: a one-rank data-parallel
    layout built from WORLD_SIZE.
    """
    global _layout_cache
    if _layout_cache is None:
        path = os.environ.get("TESSERA_LAYOUT_FILE")
        if path:
            with open(path, encoding="utf-8") as f:
                _layout_cache = json.load(f)
        else:
            n = world_size()
            _layout_cache = {
                "jobId": "", "worldSize": n, "dataParallel": n, "tensorParallel": 1,
                "pipelineParallel": 1,
                "stages": [{"stage": 0, "firstLayer": 0, "lastLayer": -1,
                            "ranks": list(range(n))}],
                "microBatches": 1, "schedule": "1f1b", "zeroStage": 0, "nodes": [],
                "modelConfig": {}, "training": {}, "dataset": {}, "checkpoint": {},
            }
    return _layout_cache


def stage_of(r=None):
    """The pipeline stage (dict from layout()["stages"]) that rank r (default: this one) holds."""
    r = rank() if r is None else r
    for st in layout()["stages"]:
        if r in st["ranks"]:
            return st
    raise ValueError("rank %d is in no stage of the layout" % r)


def checkpoint_dir():
    """Folder for this job's checkpoints on this node (TESSERA_CHECKPOINT_DIR), created."""
    path = os.environ.get("TESSERA_CHECKPOINT_DIR") or os.path.join(os.getcwd(), "checkpoints")
    os.makedirs(path, exist_ok=True)
    return path


def resume_from():
    """Checkpoint folder to resume from (TESSERA_RESUME_FROM), or None to start afresh."""
    return os.environ.get("TESSERA_RESUME_FROM") or None


def latest_checkpoint(path):
    """The newest complete checkpoint under path, or None.

    A checkpoint is a folder holding manifest.json, written last so that a folder without it is
    incomplete. path may be one itself (returned as is), or hold step-N folders (the one with
    the largest N that is complete is returned). None for None, a missing folder, or no
    complete checkpoint. Typical use: ``latest_checkpoint(tessera.resume_from())``.
    """
    if not path or not os.path.isdir(path):
        return None
    if os.path.exists(os.path.join(path, "manifest.json")):
        return path
    steps = []
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if name.startswith("step-") and name[5:].isdigit() and \
                os.path.exists(os.path.join(full, "manifest.json")):
            steps.append((int(name[5:]), full))
    return max(steps)[1] if steps else None
