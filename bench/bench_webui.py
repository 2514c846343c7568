"""Web page speed: `/api/score` latency under 20 concurrent tablets, and page load time.

Starts `mcr serve` in a child process on a free 127.0.0.1 port (the real
threaded server), then:

- 20 client threads post score requests (varied random winning hands from
  `scorer.randhands`) with urllib, a bounded total; prints p50/p95/max
  latency and throughput;
- page load: the page and every static asset fetched over HTTP (cold and
  warm), and, when /usr/bin/chromium is present, the browser's own
  navigation timing (DOMContentLoaded and load) at tablet width.

    PYTHONPATH=. python3 bench/bench_webui.py [--clients 20] [--requests 600]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MCR_DB": "/tmp/bench_webui_games.sqlite3"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "webui.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 30 s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def requests_pool(n: int) -> list[bytes]:
    from scorer.randhands import random_hands, to_request

    return [json.dumps(to_request(h, s)).encode() for h, s in random_hands(n, seed=7)]


def bench_score(base: str, clients: int, total: int) -> dict:
    bodies = requests_pool(200)
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    counter = iter(range(total))

    def worker() -> None:
        nonlocal errors
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            req = urllib.request.Request(
                f"{base}/api/score",
                data=bodies[i % len(bodies)],
                headers={"Content-Type": "application/json"},
            )
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    resp.read()
                    ok = resp.status == 200
            except OSError:
                ok = False
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                errors += not ok

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    return {
        "clients": clients,
        "requests": len(latencies),
        "errors": errors,
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p95_ms": round(1000 * percentile(latencies, 0.95), 1),
        "max_ms": round(1000 * max(latencies), 1),
        "throughput_rps": round(len(latencies) / wall, 1),
    }


def fetch_page(base: str) -> float:
    """Seconds to fetch the page and every asset it names, one after the other."""
    t0 = time.perf_counter()
    html = urllib.request.urlopen(f"{base}/", timeout=10).read().decode()
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', html):
        urllib.request.urlopen(f"{base}{asset}", timeout=10).read()
    return time.perf_counter() - t0


def browser_load(base: str) -> dict | None:
    chromium = "/usr/bin/chromium"
    if not shutil.which(chromium):
        return None
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(5):
            context = browser.new_context(viewport={"width": 768, "height": 1024})
            page = context.new_page()
            page.goto(f"{base}/", wait_until="load")
            out.append(
                page.evaluate(
                    "() => { const n = performance.getEntriesByType('navigation')[0];"
                    " return [n.domContentLoadedEventEnd, n.loadEventEnd]; }"
                )
            )
            context.close()
        browser.close()
    return {
        "dom_content_loaded_ms_median": round(statistics.median(x[0] for x in out), 1),
        "load_ms_median": round(statistics.median(x[1] for x in out), 1),
        "runs": len(out),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--requests", type=int, default=600, help="total score requests (bounded)")
    args = ap.parse_args()
    port = free_port()
    proc = start_server(port)
    base = f"http://127.0.0.1:{port}"
    try:
        report = {"cpus": os.cpu_count()}
        report["page_fetch_cold_ms"] = round(1000 * fetch_page(base), 1)
        warm = [fetch_page(base) for _ in range(10)]
        report["page_fetch_warm_ms_median"] = round(1000 * statistics.median(warm), 1)
        bench_score(base, 4, 40)  # warm-up: imports, first scoring
        report["score"] = bench_score(base, args.clients, args.requests)
        report["browser"] = browser_load(base)
    finally:
        proc.terminate()
        proc.wait(10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
