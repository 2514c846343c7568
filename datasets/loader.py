"""Training batches made in background worker processes.

Augmenting photos on the CPU is the slow part of training, not the network:
on a GPU machine one process cannot keep the accelerator busy. Each worker
gets its own random generator (seed, worker id) and makes whole batches
forever; the trainer pulls as many as its schedule needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

MakeBatch = Callable[[np.random.Generator], Any]


class _Stream(IterableDataset):
    def __init__(self, make: MakeBatch, seed: int):
        super().__init__()
        self.make, self.seed = make, seed

    def __iter__(self) -> Iterator[Any]:
        info = get_worker_info()
        wid = info.id if info is not None else 0
        if info is not None:  # one core per worker: no thread oversubscription
            cv2.setNumThreads(1)
            torch.set_num_threads(1)
        rng = np.random.default_rng([self.seed, wid])
        while True:
            yield self.make(rng)


def stream(make: MakeBatch, workers: int, seed: int, pin: bool = False) -> Iterator[Any]:
    """Endless batches from `make(rng)`; `workers=0` makes them in this process."""
    if workers <= 0:
        return iter(_Stream(make, seed))
    loader = DataLoader(
        _Stream(make, seed), batch_size=None, num_workers=workers, prefetch_factor=4,
        persistent_workers=True, multiprocessing_context="fork", pin_memory=pin,
    )  # fmt: skip
    with fork_safe():
        return iter(loader)


@contextmanager
def fork_safe() -> Iterator[None]:
    """Fork worker processes inside this block.

    OpenCV's thread pool does not survive fork: a worker forked while the
    pool is up hangs in its first parallel call. The pool is drained while
    forking and restored afterwards.
    """
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(threads)
