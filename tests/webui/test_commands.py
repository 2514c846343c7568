"""`mcr serve` is registered with safe defaults."""

from __future__ import annotations

import subprocess
import sys

import pytest

from webui.cli import build_parser


def test_serve_defaults_to_this_machine_only():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    assert callable(args.func)


def test_serve_accepts_host_and_port():
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "8123"])
    assert (args.host, args.port) == ("0.0.0.0", 8123)


def test_serve_reports_a_busy_port(capsys):
    import socket

    from webui.commands import serve

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        args = build_parser().parse_args(["serve", "--port", str(port)])
        assert serve(args) == 1
    assert "cannot listen" in capsys.readouterr().err


def test_a_busy_port_starts_no_photo_readers(capsys, monkeypatch):
    """A second `mcr serve` on a port in use says so and leaves no reader processes
    starting behind it (a reader started as the command exits would print a traceback)."""
    import socket
    import threading

    import webui.commands
    from webui.commands import serve

    started = threading.Event()
    monkeypatch.setattr(webui.commands, "_warm_up", lambda app: started.set())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        args = build_parser().parse_args(["serve", "--port", str(port), "--readers", "1"])
        assert serve(args) == 1
    assert not started.wait(0.5)
    assert "cannot listen" in capsys.readouterr().err


def test_the_photo_readers_start_once_the_port_is_bound(capsys, monkeypatch):
    import threading

    import webui.commands
    import webui.server

    events: list[str] = []
    warmed = threading.Event()

    class Server:
        effective_port = 8765

        def run(self) -> None:
            warmed.wait(5)

        def close(self) -> None:
            events.append("close")

    def bind(*args, **kwargs) -> Server:
        events.append("bind")
        return Server()

    def warm_up(app) -> None:
        events.append("readers")
        warmed.set()

    monkeypatch.setattr(webui.server, "make_server", bind)
    monkeypatch.setattr(webui.commands, "_warm_up", warm_up)
    monkeypatch.setattr(webui.commands, "_stop_on_sigterm", lambda: None)
    args = build_parser().parse_args(["serve", "--readers", "1"])
    assert webui.commands.serve(args) == 0
    assert events == ["bind", "readers", "close"]
    assert ":8765/" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv", [["score", "123m456p789s123sEE", "--json"], ["waits", "123m456p789s23sEE"]]
)
def test_output_cut_short_by_its_reader_ends_quietly(argv):
    """`mcr score --json ... | head -1`: the reader goes away before the output is
    written; the command ends with no traceback and no "internal error"."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "webui.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert b"Traceback" not in err and b"internal error" not in err and b"Exception" not in err
