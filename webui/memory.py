"""Big buffers handed back to the system as soon as they are freed.

Every upload passes through the server as one bytes object of up to 25 MB,
read on one of its many request threads. glibc serves an allocation that
large from its own pages (mmap) and unmaps them when it is freed, but it
then raises that threshold to the size just freed, so that later buffers of
that size are carved out of the threads' heaps and stay there when freed.
With the threshold fixed, every buffer from 1 MB up keeps its own pages and
gives them back when freed, whatever came before.
"""

from __future__ import annotations

import ctypes
import sys

#: glibc's `mallopt` parameter for the size from which allocations get their own pages
M_MMAP_THRESHOLD = -3
#: from 1 MB up: photos and their copies, not the many small objects of a request
THRESHOLD = 1 << 20


def return_big_buffers(threshold: int = THRESHOLD) -> bool:
    """Fix the C allocator's own-pages threshold (glibc on Linux); False where that
    allocator is not there to ask (macOS, Windows, musl keep their own ways)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, threshold) == 1
