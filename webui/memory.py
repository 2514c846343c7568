"""Big buffers handed back to the system as soon as they are freed.

Every upload passes through the server as one bytes object of up to 25 MB,
read on one of its many request threads. glibc serves an allocation that
large from its own pages (mmap) and unmaps them when it is freed, but it
then raises that threshold to the size just freed, so the next uploads are
carved out of the threads' heaps and stay there: bursts of 8 uploads took
the server from 36 MB to 870 MB, never given back. Fixing the threshold
keeps every large buffer on its own pages, whatever came before.
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
