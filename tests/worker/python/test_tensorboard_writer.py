"""tessera.tensorboard: event files that an independent reader (tests/support/tfevents_reader.py,
sharing no code with the writer) reads back exactly: the file_version event first, each scalar
with its step and wall time, in the folder of $TESSERA_TENSORBOARD_DIR by default.

    /usr/bin/python3 tests/worker/python/test_tensorboard_writer.py   # no torch needed
"""

import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../../worker/python"))
from tessera import tensorboard  # noqa: E402

READER = os.path.join(HERE, "../../support/tfevents_reader.py")


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def read(folder):
    out = subprocess.run([sys.executable, READER, folder], capture_output=True, text=True,
                         check=False)
    if out.returncode != 0:
        raise AssertionError("reader failed: " + out.stderr)
    return json.loads(out.stdout)["files"]


class WriterTest(unittest.TestCase):
    def test_crc32c_vectors(self):
        # RFC 3720 B.4 and the check value of "123456789".
        self.assertEqual(tensorboard._crc32c(b"123456789"), 0xE3069283)
        self.assertEqual(tensorboard._crc32c(bytes(32)), 0x8A9136AA)
        self.assertEqual(tensorboard._crc32c(b"\xff" * 32), 0x62A8AB43)

    def test_scalars_read_back(self):
        with tempfile.TemporaryDirectory() as d:
            with tensorboard.SummaryWriter(d) as w:
                w.add_scalar("train/loss", 0.5, 1, walltime=1700000000.25)
                w.add_scalar("lr", 3e-4, 2, walltime=1700000001.5)
                w.add_scalars_at(3, {"a": 1, "b": -2.5}, walltime=1700000002.0)
                w.add_scalar("big step", 7, 2 ** 40, walltime=1.0)
            files = read(d)
            self.assertEqual(len(files), 1)
            name = files[0]["path"]
            self.assertTrue(name.startswith("events.out.tfevents."), name)
            self.assertEqual(name.split(".")[-2], str(os.getpid()))
            events = files[0]["events"]
            self.assertEqual(events[0]["file_version"], "brain.Event:2")
            self.assertEqual(events[0]["values"], {})
            got = [(e["step"], e["wall_time"], e["values"]) for e in events[1:]]
            self.assertEqual(got, [
                (1, 1700000000.25, {"train/loss": 0.5}),
                (2, 1700000001.5, {"lr": f32(3e-4)}),
                (3, 1700000002.0, {"a": 1.0, "b": -2.5}),
                (2 ** 40, 1.0, {"big step": 7.0}),
            ])

    def test_default_folder_is_tesseras(self):
        with tempfile.TemporaryDirectory() as d:
            target = os.path.join(d, "made", "by", "writer")
            old = os.environ.get("TESSERA_TENSORBOARD_DIR")
            os.environ["TESSERA_TENSORBOARD_DIR"] = target
            try:
                w = tensorboard.SummaryWriter()
                w2 = tensorboard.SummaryWriter()  # a second file, never the same name
                w.add_scalar("x", 1.0, 5)
                w.close()
                w2.close()
            finally:
                if old is None:
                    del os.environ["TESSERA_TENSORBOARD_DIR"]
                else:
                    os.environ["TESSERA_TENSORBOARD_DIR"] = old
            self.assertEqual(w.get_logdir(), target)
            self.assertEqual(len(read(target)), 2)

    def test_refuses_what_is_not_a_number(self):
        with tempfile.TemporaryDirectory() as d:
            with tensorboard.SummaryWriter(d) as w:
                with self.assertRaises(ValueError):
                    w.add_scalar("loss", "0.5", 1)
                with self.assertRaises(ValueError):
                    w.add_scalar("loss", 0.5, 1.5)
            w.close()  # twice is fine
            with self.assertRaises(ValueError):
                w.add_scalar("loss", 0.5, 2)

    def test_records_in_two_halves_frame_as_one(self):
        rec = tensorboard.scalar_record("loss", 0.25, 9, walltime=2.0)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "events.out.tfevents.1.x")
            with open(path, "wb") as f:
                f.write(rec[:10])
                f.write(rec[10:])
            self.assertEqual(read(d)[0]["events"], [{"wall_time": 2.0, "step": 9,
                                                     "values": {"loss": 0.25}}])


if __name__ == "__main__":
    unittest.main()
