"""``python3 -m tessera.torchrun``: PyTorch's torchrun (torch.distributed.run), unchanged, with
two fixes for PyTorch before 2.0 on Python 3.11 (Debian bookworm's python3-torch 1.13).

There every torchrun fails at start with "AttributeError: 'NoneType' object has no attribute
'get'" in torch/distributed/elastic/multiprocessing/api.py to_map(): Std.from_str("0") returns
None, because Python 3.11's enum no longer yields the zero-valued flag Std.NONE when iterating
Std. The first fix maps a plain number to Std(number). Second, with ``--tee`` (Tessera's launcher
uses it to tell the ranks' lines apart) torchrun's tailer reads each rank's log as text and stops
at the first byte that is not UTF-8; here it carries bytes. Tessera's torchrun launcher starts
each node's agent through this module; by hand it is used exactly like torchrun.
"""

import sys

#: Longest piece of a line passed on at once (a line without a newline is not held forever).
_MAX_PIECE = 64 * 1024


def _patch_std_from_str():
    try:
        from torch.distributed.elastic.multiprocessing import api
    except ImportError:
        return
    original = api.Std.from_str

    def from_str(vm):
        std = original(vm)
        if std is None and vm.strip().isdigit():
            return api.Std(int(vm))
        return std

    api.Std.from_str = staticmethod(from_str)


class _HolePuncher:
    """Frees the disk blocks of a log file behind its reader (fallocate PUNCH_HOLE, Linux).

    torchrun's --tee has each rank write all its output to a file that is never shortened;
    once the tailer has passed bytes on, they are punched out, so the file takes only the
    unread backlog on disk (its apparent size still grows). Silently does nothing where the
    call is missing or refused (another OS, a file system without hole punching).
    """

    _EVERY = 1 << 20  # bytes read between two punches
    _FLAGS = 0x01 | 0x02  # FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE (linux/falloc.h)

    def __init__(self, path):
        import os
        self._done = 0
        self._fd = -1
        self._fallocate = None
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            self._fallocate = libc.fallocate
            self._fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                                        ctypes.c_int64]
            self._fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        except (OSError, AttributeError):
            self._fallocate = None

    def behind(self, offset):
        if self._fallocate is None or offset - self._done < self._EVERY:
            return
        if self._fallocate(self._fd, self._FLAGS, 0, offset) != 0:
            self.close()  # not supported here: keep the file as it is
            return
        self._done = offset

    def close(self):
        import os
        if self._fd >= 0:
            os.close(self._fd)
        self._fd = -1
        self._fallocate = None


def _tail_logfile_bytes(header, file, dst, finished, interval_sec):
    """torchrun's tail_logfile (--tee), reading bytes instead of text.

    The original opens the rank's log file as text in the locale's encoding: the first line
    that is not valid UTF-8 raises UnicodeDecodeError in the tailer thread, which then stops,
    and every later line of that rank never reaches the console. This copy passes each line's
    bytes on unchanged, prefixed by ``header`` ("[default0]:"), ends an unterminated last line
    with a newline, and writes each line with one call so that lines of ranks do not mix.
    """
    import os
    import time

    while not os.path.exists(file):
        if finished.is_set():
            return
        time.sleep(interval_sec)
    out = getattr(dst, "buffer", None)
    prefix = header.encode("utf-8")
    punch = _HolePuncher(file)
    with open(file, "rb") as fp:
        while True:
            punch.behind(fp.tell())
            line = fp.readline(_MAX_PIECE)
            if line and not line.endswith(b"\n") and len(line) < _MAX_PIECE:
                if not finished.is_set():
                    # A line still being written: read it again once it is whole.
                    fp.seek(-len(line), os.SEEK_CUR)
                    time.sleep(interval_sec)
                    continue
                line += b"\n"
            elif line and not line.endswith(b"\n"):
                line += b"\n"  # a piece of a longer line (the worker cuts at 64 KiB too)
            if line:
                if out is not None:
                    dst.flush()
                    out.write(prefix + line)
                    out.flush()
                else:
                    dst.write(header + line.decode("utf-8", "backslashreplace"))
            elif finished.is_set():
                break
            else:
                time.sleep(interval_sec)
    punch.close()


def _patch_tail_logfile():
    try:
        from torch.distributed.elastic.multiprocessing import tail_log
    except ImportError:
        return
    tail_log.tail_logfile = _tail_logfile_bytes


def main():
    _patch_std_from_str()
    _patch_tail_logfile()
    from torch.distributed import run
    return run.main()


if __name__ == "__main__":
    sys.exit(main())
