"""Large buffers freed by the server's many threads go back to the system
(`webui.memory`): uploads of 25 MB, eight at once, again and again."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import textwrap

import pytest

import webui.photos
import webui.server
from webui.app import create_app
from webui.server import Limits, make_server

BURSTS = textwrap.dedent(
    """
    import json, os, sys, threading
    from concurrent.futures import ThreadPoolExecutor
    from webui.memory import return_big_buffers

    fixed = return_big_buffers()

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

    barrier = threading.Barrier(8)

    def upload(_):
        photo = bytes(25 * 2**20)  # an upload's body, read on a request thread
        copy = photo[:-1] + b"x"  # and a copy of it (multipart, the reader's pipe)
        barrier.wait()  # all eight held at once
        del photo, copy

    before = rss()
    sizes = []
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            list(pool.map(upload, range(8)))
            sizes.append(rss())
    print(json.dumps({"fixed": fixed, "before": before, "after": sizes}))
    """
)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc's allocator and /proc",
)
def test_bursts_of_large_buffers_leave_no_memory_behind() -> None:
    """Five bursts of eight 25 MB buffers, each burst's buffers freed before the next: the
    process ends where it began, each buffer's pages given back when it is freed rather
    than kept in the heap of the thread that held it."""
    run = subprocess.run(
        [sys.executable, "-c", BURSTS], capture_output=True, text=True, timeout=120, check=True
    )
    out = json.loads(run.stdout)
    assert out["fixed"] is True
    assert max(out["after"]) - out["before"] < 60, out


def test_the_server_and_its_photo_readers_fix_the_threshold(monkeypatch, tmp_path) -> None:
    """Both processes that hold uploads set it: the server when it starts, each photo
    reader process when it starts."""
    calls: list[str] = []
    monkeypatch.setattr(webui.server, "return_big_buffers", lambda: calls.append("server"))
    monkeypatch.setattr(webui.photos, "return_big_buffers", lambda: calls.append("reader"))
    monkeypatch.setattr("vision.readers.warm_up", lambda: None)
    monkeypatch.setattr(os, "nice", lambda _: 0, raising=False)  # this process's priority
    monkeypatch.setattr(webui.photos, "_exit_with_parent", lambda parent: None)
    server = make_server(create_app({"MCR_DB": str(tmp_path / "g.db")}), "127.0.0.1", 0, Limits())
    server.close()
    webui.photos._init_worker(parent=os.getppid())
    assert calls == ["server", "reader"]
