"""Building many objects at once, without paying the cyclic garbage collector again and again.

CPython's cyclic collector runs whenever allocations outnumber deallocations by a threshold,
and each older-generation pass rescans the whole heap: while an import or a metrics pass
builds hundreds of thousands of small objects that all stay alive, it rescans the growing
heap many times for nothing (none of these objects is part of a reference cycle).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def bulk_objects() -> Iterator[None]:
    """Pause the cyclic collector for the block; it runs as usual afterwards.

    Measured on 50,000 agent trajectories: the ``agents`` JSON 1.7 s → 0.57 s, the metrics
    pass 2.7 s → 1.9 s; on an import of 20,000 trajectories × 8 steps 2.4 s → 1.8 s.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
