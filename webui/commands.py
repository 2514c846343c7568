"""`mcr serve`: start the table page on this machine.

By default on waitress (`webui.server`); `--dev` runs Flask's development
server instead. Listening beyond this machine (`--host 0.0.0.0`) turns on
the hall PIN for game sheet changes: `--pin`, or one made up and printed
at start with the page's address and a QR code for tablets to join.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import threading
from collections.abc import Callable


def _warm_up(app) -> None:
    """Start the photo readers in the background (models loaded) so the first photo is quick."""
    from webui.api import photo_reader

    try:
        with app.app_context():
            photo_reader().warm_up()
    except Exception as exc:  # the page still scores typed hands without the models
        print(f"photo reading unavailable: {exc}", file=sys.stderr)


def _config(args: argparse.Namespace) -> dict:
    from webui.server import is_loopback_host, own_names

    config: dict = {
        "MCR_ALLOWED_HOSTS": own_names(args.host, args.allow_host),
        "MCR_READERS": args.readers,
    }
    if args.db:
        config["MCR_DB"] = args.db
    if args.pin or not is_loopback_host(args.host):
        config["MCR_PIN"] = args.pin or f"{secrets.randbelow(10**6):06d}"
    return config


def _announce(args: argparse.Namespace, port: int, pin: str | None) -> None:
    from webui.server import page_url, qr_text

    url = page_url(args.host, port)
    print(f"MCR table page: {url}  (Ctrl+C to stop)", flush=True)
    if pin:
        join = f"{url}join?pin={pin}"
        print(f"Hall PIN for game sheet changes from other devices: {pin}")
        print(f"Tablets join at {join}")
        qr = qr_text(join)
        if qr:
            print(qr)
    sys.stdout.flush()


def _cannot_listen(args: argparse.Namespace, exc: OSError) -> int:
    print(
        f"mcr serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
        file=sys.stderr,
    )
    return 1


def _stop_on_sigterm() -> None:
    """SIGTERM ends the server like Ctrl+C, so the photo readers are stopped too."""
    import signal

    def stop(signum, frame):
        raise SystemExit(0)

    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, stop)


def _listen(app, args: argparse.Namespace) -> tuple[Callable[[], None], Callable[[], None], int]:
    """The server bound to --host/--port (OSError when it cannot listen; Flask's development
    server says why itself and exits): its run, its close and the port it listens on."""
    if args.dev:
        from werkzeug.serving import make_server as dev_server

        dev = dev_server(args.host, args.port, app, threaded=True)
        return dev.serve_forever, dev.server_close, dev.port
    from webui.server import Limits, make_server

    server = make_server(app, args.host, args.port, Limits(threads=args.threads))
    return server.run, server.close, server.effective_port


def serve(args: argparse.Namespace) -> int:
    from webui.app import create_app

    app = create_app(_config(args))
    try:
        run, close, port = _listen(app, args)
    except OSError as exc:
        return _cannot_listen(args, exc)
    # the photo readers start once the port is ours: a server that cannot listen
    # leaves no reader processes starting behind it
    if args.readers != 0:
        threading.Thread(target=_warm_up, args=(app,), daemon=True).start()
    _announce(args, port, app.config.get("MCR_PIN"))
    _stop_on_sigterm()
    try:
        run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        close()
        reader = app.extensions.get("mcr_photos")
        if reader is not None:
            reader.close()
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
        "0.0.0.0 to let tablets on the network connect, with the hall PIN)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None, help="game sheet database file")
    p.add_argument(
        "--pin",
        default=None,
        help="hall PIN other devices need to change game sheets (default when listening "
        "beyond this machine: a new one, printed at start)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a further host name the page may be opened by (repeatable)",
    )
    p.add_argument(
        "--readers",
        type=int,
        default=None,
        metavar="N",
        help="photos read at once (default: one per core; 0: no photo reading)",
    )
    p.add_argument("--threads", type=int, default=48, help="request threads (default 48)")
    p.add_argument(
        "--dev", action="store_true", help="Flask's development server instead of waitress"
    )
    p.set_defaults(func=serve)
