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
