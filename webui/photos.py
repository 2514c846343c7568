"""Photo reading for the web server: a bounded pool of readers and a bounded queue.

Reading a photo takes a core for about half a second; twenty tablets
uploading at once must neither start twenty readings (memory, thrashing)
nor stall the score requests. So:

- `readers` photos are read at once (default: one per core), each in a
  worker process of its own that loads the models once and runs at a lower
  priority than the server, so typed hands are scored at once meanwhile;
- at most `queue` more wait their turn; past that, or when the photos ahead
  would take longer than `WAIT_S` at the pace readings have lately taken, the
  answer is at once 503 with `Retry-After` from that pace (`Busy`), which the
  page shows and retries;
- a waiting upload stays in the server's temporary file; only a photo whose
  turn has come is read into memory.

With a reader function given (tests: a fake that needs no model) the
readers are threads of the server process instead.
"""

from __future__ import annotations

import contextlib
import logging
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import IO, Any

from scorer.errors import McrError
from webui.errors import RequestError
from webui.memory import return_big_buffers

log = logging.getLogger(__name__)

#: reads a photo: its bytes, its name and, where sent, the table's exemplars as a keyword
#: (`vision.exemplars`)
RecognizeFn = Callable[..., dict]

#: how many more photos may wait per reader before the server answers 503
QUEUE_PER_READER = 16
#: the longest a photo may wait for a reader, and then the longest its reading may take
WAIT_S = 60.0
READ_S = 60.0
#: the worker processes' scheduling priority below the server's (POSIX nice)
NICE = 10
#: a reading's seconds before any has been timed (a whole table on two cores), and how far
#: each timed reading moves the pace (a moving average: a busy machine slows every reader)
FIRST_READ_S = 1.0
PACE_WEIGHT = 0.3


class Busy(Exception):
    """Every reader is busy and the queue is full: try again in `retry_after` seconds."""

    def __init__(self, retry_after: int, code: str = "busy") -> None:
        super().__init__(code)
        self.retry_after = retry_after
        self.code = code


def _exit_with_parent(parent: int) -> None:
    """End this worker when the server is gone (even killed with SIGKILL)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _init_worker(parent: int) -> None:
    """Each worker process: lower priority, models loaded once, before the first photo."""
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()
    return_big_buffers()
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(NICE)
    try:
        from vision.readers import warm_up

        warm_up()
    except Exception as exc:  # reported per photo instead (ModelError)
        log.warning("photo reading unavailable: %s", exc)


#: what a reader may be asked to do with a photo: `vision.pipeline`'s function for each
TASKS = {"recognize": "recognize", "teach": "teach_set"}


def _read_in_worker(
    data: bytes, name: str, exemplars: Any = None, task: str = "recognize"
) -> dict[str, Any]:
    """Read one photo in a worker (`TASKS`: a hand, or a set laid out to teach it); an
    error comes back as data (message id and parameters)."""
    try:
        import vision.pipeline as pipeline
    except ImportError as exc:
        log.warning("recognizer unavailable: %s", exc)
        return {"error": "RequestError", "id": "recognizer_unavailable", "params": {}}
    named = {} if exemplars is None else {"exemplars": exemplars}
    try:
        return {"ok": getattr(pipeline, TASKS[task])(data, name, **named)}
    except McrError as exc:
        params = {
            k: v if isinstance(v, int | float | str) else str(v) for k, v in exc.params.items()
        }
        return {"error": type(exc).__name__, "id": exc.message_id, "params": params}


def _ready() -> bool:
    return True


class PhotoReader:
    """Reads photos with at most `readers` at once and `queue` waiting."""

    def __init__(
        self,
        readers: int | None = None,
        queue: int | None = None,
        recognize: RecognizeFn | None = None,
    ) -> None:
        self.readers = max(1, readers or os.cpu_count() or 1)
        self.queue = self.readers * QUEUE_PER_READER if queue is None else max(0, queue)
        self._recognize = recognize
        self._admitted = threading.BoundedSemaphore(self.readers + self.queue)
        self._reading = threading.BoundedSemaphore(self.readers)
        self._lock = threading.Lock()
        self._executor: Executor | None = None
        self._waiting = 0  # photos admitted that wait for a reader
        self._read_s = FIRST_READ_S  # the pace: a reading's recent seconds

    def _pool(self) -> Executor:
        with self._lock:
            if self._executor is None:
                if self._recognize is not None:
                    self._executor = ThreadPoolExecutor(self.readers, thread_name_prefix="photo")
                else:
                    self._executor = ProcessPoolExecutor(
                        self.readers,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_init_worker,
                        initargs=(os.getpid(),),
                    )
            return self._executor

    def warm_up(self) -> None:
        """Start every reader now (and load the models) so the first photos are quick."""
        pool = self._pool()
        if isinstance(pool, ProcessPoolExecutor):
            for future in [pool.submit(_ready) for _ in range(self.readers)]:
                future.result()

    def _reset(self) -> None:
        with self._lock:
            broken, self._executor = self._executor, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    def read(
        self,
        upload: IO[bytes],
        name: str,
        limit: int,
        exemplars: Any = None,
        task: str = "recognize",
    ) -> dict[str, Any]:
        """Read the photo in `upload` (at most `limit` bytes) for `task` (`TASKS`), leaning
        on the table's `exemplars`; Busy or McrError when it cannot. A set taught shares
        the readers and the queue with the hands: one pool bounds them all."""
        if not self._admitted.acquire(blocking=False):
            raise Busy(self._retry_after())
        try:
            self._wait_turn()
            return self._read_now(upload, name, limit, exemplars, task)
        except BrokenProcessPool:
            log.error("a photo reader process died; starting new ones")
            self._reset()
            raise Busy(self._retry_after()) from None
        finally:
            self._admitted.release()

    def _wait_turn(self) -> None:
        """A reader's slot; Busy at once when the photos ahead would keep this one waiting
        past WAIT_S (a tablet told to come back beats one left hanging for a minute)."""
        if self._reading.acquire(blocking=False):
            return
        with self._lock:
            too_long = (self._waiting + 1) * self._read_s / self.readers > WAIT_S
            if not too_long:
                self._waiting += 1
        if too_long:
            raise Busy(self._retry_after())
        try:
            if not self._reading.acquire(timeout=WAIT_S):
                raise Busy(self._retry_after())
        finally:
            with self._lock:
                self._waiting -= 1

    def _read_now(
        self, upload: IO[bytes], name: str, limit: int, exemplars: Any, task: str
    ) -> dict[str, Any]:
        """Read with a reader slot held; the slot is freed when the reading ends. A reader
        function given (tests) reads the hands; a set is taught by the library's own."""
        try:
            data = upload.read(limit + 1)
            if not data:
                raise RequestError("empty_photo")
            fn = self._recognize if self._recognize and task == "recognize" else None
            named = {} if exemplars is None else {"exemplars": exemplars}
            if fn is None:
                future = self._pool().submit(_read_in_worker, data, name, task=task, **named)
            else:
                future = self._pool().submit(fn, data, name, **named)
            del data
        except BaseException:
            self._reading.release()
            raise
        future.add_done_callback(lambda _: self._reading.release())
        started = time.monotonic()
        try:
            out = future.result(timeout=READ_S)
        except FutureTimeout:
            raise Busy(self._retry_after(), "photo_timeout") from None
        with self._lock:
            self._read_s += PACE_WEIGHT * (time.monotonic() - started - self._read_s)
        return out if fn is not None else _unwrap(out)

    def _retry_after(self) -> int:
        """Seconds until the photos waiting and being read are likely done, at the pace."""
        with self._lock:
            ahead = self._waiting + self.readers
            return max(1, min(60, math.ceil(ahead * self._read_s / self.readers)))

    def close(self) -> None:
        with self._lock:
            pool, self._executor = self._executor, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _unwrap(out: dict[str, Any]) -> dict[str, Any]:
    if "ok" in out:
        return out["ok"]
    from vision.errors import ModelError, PhotoError, TileListError

    kinds = {"ModelError": ModelError, "PhotoError": PhotoError, "TileListError": TileListError}
    raise kinds.get(out["error"], RequestError)(out["id"], **out["params"])
