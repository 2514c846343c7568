"""`mcr serve`: start the table page on this machine."""

from __future__ import annotations

import argparse
import socket
import sys
import threading


def _warm_up() -> None:
    """Load the recognition models in the background so the first photo is quick."""
    try:
        import vision.pipeline as pipeline

        warm = getattr(pipeline, "warm_up", None)
        if callable(warm):
            warm()
    except Exception as exc:  # the page still scores typed hands without the models
        print(f"photo reading unavailable: {exc}", file=sys.stderr)


def _port_free(host: str, port: int) -> OSError | None:
    """None when host:port can be listened on, else the error (checked before Flask starts)."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((host, port))
    except OSError as exc:
        return exc
    return None


def serve(args: argparse.Namespace) -> int:
    from webui.app import create_app

    problem = _port_free(args.host, args.port)
    if problem is not None:
        print(
            f"mcr serve: cannot listen on {args.host}:{args.port}: {problem.strerror or problem}",
            file=sys.stderr,
        )
        return 1
    config = {"MCR_DB": args.db} if args.db else None
    app = create_app(config)
    threading.Thread(target=_warm_up, daemon=True).start()
    print(f"MCR table page: http://{args.host}:{args.port}/  (Ctrl+C to stop)", flush=True)
    try:
        app.run(host=args.host, port=args.port, threaded=True, debug=False, use_reloader=False)
    except OSError as exc:
        print(
            f"mcr serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return 1
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="start the table web page",
        description="Start the local table page: photo → tiles → fan breakdown.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; "
        "0.0.0.0 to let tablets on the network connect)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None, help="game sheet database file")
    p.set_defaults(func=serve)
