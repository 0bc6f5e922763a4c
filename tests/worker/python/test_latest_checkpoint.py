"""tessera.latest_checkpoint: the newest complete step-N folder, never an incomplete or oddly
named one, and None for nothing to resume from.

    /usr/bin/python3 tests/worker/python/test_latest_checkpoint.py   # no torch needed
"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../../../worker/python"))
import tessera  # noqa: E402


def make(root, name, complete=True):
    path = os.path.join(root, name)
    os.makedirs(path)
    if complete:
        open(os.path.join(path, "manifest.json"), "w").close()
    return path


class LatestCheckpointTest(unittest.TestCase):
    def test_newest_complete_step(self):
        with tempfile.TemporaryDirectory() as d:
            make(d, "step-9")
            want = make(d, "step-10")          # 10 > 9 as numbers, not as text
            make(d, "step-11", complete=False)  # still being written
            make(d, "step-x")                   # not a step
            make(d, "step-")
            make(d, "other-99")
            open(os.path.join(d, "step-12"), "w").close()  # a file, not a folder
            self.assertEqual(tessera.latest_checkpoint(d), want)

    def test_a_checkpoint_itself_and_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            one = make(d, "step-3")
            self.assertEqual(tessera.latest_checkpoint(one), one)
            empty = make(d, "empty", complete=False)
            self.assertIsNone(tessera.latest_checkpoint(empty))
            self.assertIsNone(tessera.latest_checkpoint(os.path.join(d, "missing")))
            self.assertIsNone(tessera.latest_checkpoint(None))
            self.assertIsNone(tessera.latest_checkpoint(""))


if __name__ == "__main__":
    unittest.main()
