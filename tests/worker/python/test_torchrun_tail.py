"""tessera.torchrun's tailer for torchrun --tee: every byte passes (also bytes that are not
UTF-8, also a last line without a newline), each line with the rank's prefix, and the log file
keeps on disk only what was not read yet (its blocks are punched out behind the reader).

    /usr/bin/python3 tests/worker/python/test_torchrun_tail.py   # no torch needed
"""

import io
import os
import sys
import tempfile
import threading
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../../worker/python"))
from tessera import torchrun  # noqa: E402


class Sink(io.TextIOWrapper):
    def __init__(self):
        super().__init__(io.BytesIO(), encoding="utf-8", write_through=True)


class TailTest(unittest.TestCase):
    def test_bytes_pass_and_disk_is_freed(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "stdout.log")
            line = b"x" * 1000 + b" \xff\xfe\n"
            lines = 4000  # about 4 MB
            finished = threading.Event()
            sink = Sink()

            def producer():
                with open(path, "wb", buffering=0) as f:
                    for _ in range(lines):
                        f.write(line)
                    f.write(b"no newline at the end")
                finished.set()

            t = threading.Thread(target=producer)
            t.start()
            torchrun._tail_logfile_bytes("[default3]:", path, sink, finished, 0.01)
            t.join()
            got = sink.buffer.getvalue().split(b"\n")
            self.assertEqual(got[-1], b"")
            self.assertEqual(len(got) - 1, lines + 1)
            self.assertTrue(all(g == b"[default3]:" + line[:-1] for g in got[:lines]))
            self.assertEqual(got[lines], b"[default3]:no newline at the end")
            size = os.stat(path).st_size
            on_disk = os.stat(path).st_blocks * 512
            print("file %d bytes, %d on disk at the end" % (size, on_disk))
            self.assertEqual(size, lines * len(line) + len(b"no newline at the end"))
            self.assertLess(on_disk, 2 << 20, "read bytes were not punched out")


if __name__ == "__main__":
    unittest.main()
