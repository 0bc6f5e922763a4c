"""TensorBoard event files from a program without the ``tensorboard`` package.

Standard library only. Writes the scalars of ``SummaryWriter.add_scalar`` the way PyTorch's
``torch.utils.tensorboard.SummaryWriter`` does (one ``Event`` with a ``Summary.Value`` of
``simple_value`` per call, framed as TFRecords), into ``$TESSERA_TENSORBOARD_DIR`` by default:
the worker of rank 0 charts them live, and ``tensorboard --logdir`` reads them as well.

    from tessera.tensorboard import SummaryWriter
    writer = SummaryWriter()            # $TESSERA_TENSORBOARD_DIR (or $TENSORBOARD_LOGDIR)
    for step in range(1, steps + 1):
        ...
        writer.add_scalar("train/loss", loss.item(), step)
    writer.close()

The format: each record is its length (uint64, little-endian), the masked CRC-32C of those 8
bytes (uint32 LE), the data (a serialized ``tensorboard.Event``) and the masked CRC-32C of the
data; a mask is ``((crc >> 15) | (crc << 17)) + 0xA282EAD8`` (TensorFlow's "TFRecord format
details"; the messages in tensorflow/core/util/event.proto and framework/summary.proto).
"""

import itertools
import numbers
import os
import socket
import struct
import time

__all__ = ["SummaryWriter", "scalar_record", "event_record"]

_FILE_VERSION = b"brain.Event:2"
_file_numbers = itertools.count()


def _crc_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def _crc32c(data):
    """CRC-32C (Castagnoli) of ``data`` (RFC 3720 B.4: b"123456789" -> 0xE3069283)."""
    c = 0xFFFFFFFF
    for b in data:
        c = _CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def _masked_crc(data):
    c = _crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n):
    n &= 0xFFFFFFFFFFFFFFFF  # int64 as protobuf writes it: a negative one takes 10 bytes
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number, wire_type):
    return _varint((number << 3) | wire_type)


def _length_delimited(number, payload):
    return _field(number, 2) + _varint(len(payload)) + payload


def _frame(data):
    """``data`` as one TFRecord."""
    header = struct.pack("<Q", len(data))
    return (header + struct.pack("<I", _masked_crc(header)) + data +
            struct.pack("<I", _masked_crc(data)))


def _scalar(name, value):
    if hasattr(value, "item") and callable(value.item):  # a one-element torch/numpy tensor
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError("tessera.tensorboard: %s=%r is not a number" % (name, value))
    return float(value)


def event_record(step, values, walltime=None):
    """One framed record: an ``Event`` at ``step`` (a whole number) whose ``Summary`` holds
    ``values`` ({tag: number}, in order) as ``simple_value`` scalars (float32, as TensorBoard
    stores them), stamped ``walltime`` (seconds since the epoch; now when None). Bytes to append
    to an event file; ``SummaryWriter`` writes these."""
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise ValueError("tessera.tensorboard: step=%r must be a whole number" % (step,))
    summary = b""
    for tag, value in values.items():
        tag_bytes = tag.encode("utf-8") if isinstance(tag, str) else bytes(tag)
        value_msg = (_length_delimited(1, tag_bytes) + _field(2, 5) +
                     struct.pack("<f", _scalar(tag, value)))
        summary += _length_delimited(1, value_msg)
    wall = time.time() if walltime is None else float(walltime)
    event = (_field(1, 1) + struct.pack("<d", wall) + _field(2, 0) + _varint(int(step)) +
             _length_delimited(5, summary))
    return _frame(event)


def scalar_record(tag, value, step, walltime=None):
    """One framed record holding the scalar ``tag`` = ``value`` at ``step`` (see event_record)."""
    return event_record(step, {tag: value}, walltime)


def _version_record(walltime):
    return _frame(_field(1, 1) + struct.pack("<d", walltime) + _length_delimited(3, _FILE_VERSION))


class SummaryWriter:
    """A new event file in ``log_dir`` (created if missing): ``log_dir`` when given, else
    ``$TESSERA_TENSORBOARD_DIR``, ``$TENSORBOARD_LOGDIR``, or ``runs`` outside Tessera. Named as
    PyTorch names its files: ``events.out.tfevents.<unix time>.<host>.<pid>.<n><suffix>``.
    Written records reach the file at least every ``flush_secs`` seconds (0: at once), at
    ``flush()`` and at ``close()``; the worker charts what has reached the file."""

    def __init__(self, log_dir=None, flush_secs=1.0, filename_suffix=""):
        if log_dir is None:
            log_dir = (os.environ.get("TESSERA_TENSORBOARD_DIR") or
                       os.environ.get("TENSORBOARD_LOGDIR") or "runs")
        os.makedirs(log_dir, exist_ok=True)
        now = time.time()
        name = "events.out.tfevents.%d.%s.%d.%d%s" % (
            int(now), socket.gethostname(), os.getpid(), next(_file_numbers), filename_suffix)
        self.log_dir = log_dir
        self.path = os.path.join(log_dir, name)
        self._flush_secs = float(flush_secs)
        self._file = open(self.path, "xb")
        self._last_flush = now
        self._file.write(_version_record(now))
        self.flush()

    def get_logdir(self):
        """The folder the file is in (as PyTorch's writer answers it)."""
        return self.log_dir

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None):
        """Writes ``tag`` = ``scalar_value`` at step ``global_step`` (0 when None); a value
        that is not finite is written too (TensorBoard shows it; Tessera's charts leave it
        out)."""
        self._write(scalar_record(tag, scalar_value, 0 if global_step is None else global_step,
                                  walltime))

    def add_scalars_at(self, global_step, values, walltime=None):
        """Writes every ``{tag: value}`` of ``values`` at ``global_step`` in one record."""
        self._write(event_record(global_step, values, walltime))

    def _write(self, record):
        if self._file is None:
            raise ValueError("tessera.tensorboard: the writer of %s is closed" % self.path)
        self._file.write(record)
        if time.time() - self._last_flush >= self._flush_secs:
            self.flush()

    def flush(self):
        """Hands what was written to the file (the worker reads it from there)."""
        if self._file is not None:
            self._file.flush()
            self._last_flush = time.time()

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
