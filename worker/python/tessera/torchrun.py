"""``python3 -m tessera.torchrun``: PyTorch's torchrun (torch.distributed.run), unchanged, with
one fix for PyTorch before 2.0 on Python 3.11 (Debian bookworm's python3-torch 1.13).

There every torchrun fails at start with "AttributeError: 'NoneType' object has no attribute
'get'" in torch/distributed/elastic/multiprocessing/api.py to_map(): Std.from_str("0") returns
None, because Python 3.11's enum no longer yields the zero-valued flag Std.NONE when iterating
Std. The fix maps a plain number to Std(number). Tessera's torchrun launcher starts each node's
agent through this module; by hand it is used exactly like torchrun.
"""

import sys


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


def main():
    _patch_std_from_str()
    from torch.distributed import run
    return run.main()


if __name__ == "__main__":
    sys.exit(main())
