"""`mcr serve` is registered with safe defaults."""

from __future__ import annotations

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
