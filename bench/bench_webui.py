"""Web server under a hall's load: photos and scores from 20 tablets at once, memory, page load.

Starts `mcr serve` in a child process on a free 127.0.0.1 port (the real
production server, photo readers and all), then:

- photos: one client uploading photos one after the other (the baseline
  throughput), then 20 clients x 5 uploads at once; each client does what
  the page does (a 503 busy is retried after its Retry-After, up to five
  times, counted as `retried_after_503`); prints errors (final answers but
  200), p50/p95/max latency (retries included), photos/s and the ratio to
  one client's;
- scores while the photos are read: 20 clients x 30 score requests started
  with the 20 photo clients; p50/p95/max;
- memory: the resident memory of the server and all its processes (the
  photo readers), sampled every 0.1 s; the peak of each phase;
- optionally (--big N) N photos of 48 megapixels at once, for the memory peak;
- scores alone (20 clients, a bounded total) and page load: the page and its
  assets over HTTP, and with /usr/bin/chromium the browser's navigation timing.

Photos: the valid split of ../shared/datasets/cmd-v4 (640x640 JPEGs), with
--phone-size scaled up to 4032x3024 as a phone takes them; without the
dataset, a drawn table photo.

    PYTHONPATH=. python3 bench/bench_webui.py [--photo-clients 20] [--photos-each 5]
        [--score-clients 20] [--scores-each 30] [--phone-size] [--big 6] [--no-browser]
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
import urllib.error
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


def _tree_rss_kb(root: int) -> int:
    """Resident memory (KB) of `root` and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            pid = int(entry)
            parents[pid] = int(fields[1])
            rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
        except (OSError, IndexError, ValueError):
            continue
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        tree.add(pid)
        todo.extend(c for c, p in parents.items() if p == pid and c not in tree)
    return sum(rss.get(pid, 0) for pid in tree)


class MemoryWatch:
    """Samples the server's tree memory every 0.1 s; `peak_mb()` since the last `reset()`."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(0.1):
            self.peak = max(self.peak, _tree_rss_kb(self.pid))

    def reset(self) -> None:
        self.peak = _tree_rss_kb(self.pid)

    def peak_mb(self) -> float:
        return round(self.peak / 1024, 1)


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


def bench_photos_files(phone_size: bool) -> list[tuple[str, bytes]]:
    """The photos to upload: the dataset's valid split, else one drawn table photo."""
    import cv2

    folder = ROOT.parent / "shared" / "datasets" / "cmd-v4" / "valid" / "images"
    paths = sorted(folder.glob("*.jpg"))[:40] if folder.is_dir() else []
    if not paths:
        sys.path.insert(0, str(ROOT))
        from tests.webui.photo_fixture import photo_png

        print("dataset absent: uploading a drawn table photo", file=sys.stderr)
        return [("drawn.png", photo_png())]
    out = []
    for path in paths:
        data = path.read_bytes()
        if phone_size:
            img = cv2.resize(cv2.imread(str(path)), (4032, 3024), interpolation=cv2.INTER_CUBIC)
            data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
        out.append((path.name, data))
    return out


def _multipart(name: str, data: bytes) -> tuple[bytes, str]:
    boundary = "----mcrbench"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{name}"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def bench_photos(base: str, clients: int, each: int, photos: list[tuple[str, bytes]]) -> dict:
    """`clients` threads upload `each` photos one after the other; latency and errors."""
    bodies = [_multipart(n, d) for n, d in photos]
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    lock = threading.Lock()

    def post(body: bytes, ctype: str) -> tuple[str, int]:
        """One upload as the page makes it: a 503 busy is retried after Retry-After (5x)."""
        for attempt in range(6):
            req = urllib.request.Request(
                f"{base}/api/recognize", data=body, headers={"Content-Type": ctype}
            )
            try:
                with urllib.request.urlopen(req, timeout=180) as resp:
                    resp.read()
                    return str(resp.status), attempt
            except urllib.error.HTTPError as exc:
                if exc.code != 503 or attempt == 5:
                    return str(exc.code), attempt
                time.sleep(int(exc.headers.get("Retry-After") or 3))
            except OSError as exc:
                return type(exc).__name__, attempt
        raise AssertionError("unreachable")

    def worker(c: int) -> None:
        for k in range(each):
            body, ctype = bodies[(c * each + k) % len(bodies)]
            t0 = time.perf_counter()
            status, retries = post(body, ctype)
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                statuses[status] = statuses.get(status, 0) + 1
                statuses["retried_after_503"] = statuses.get("retried_after_503", 0) + retries

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    return {
        "clients": clients,
        "uploads": len(latencies),
        "errors": sum(n for s, n in statuses.items() if s not in ("200", "retried_after_503")),
        "statuses": statuses,
        "p50_s": round(statistics.median(latencies), 2),
        "p95_s": round(percentile(latencies, 0.95), 2),
        "max_s": round(max(latencies), 2),
        "photos_per_s": round(len(latencies) / wall, 2),
    }


def bench_hall(base: str, args: argparse.Namespace, photos: list, memory: MemoryWatch) -> dict:
    """One tablet's photo rate, then 20 tablets' photos and scores at once; memory peaks."""
    bench_photos(base, 1, 2, photos)  # the readers are up and warm
    memory.reset()
    one = bench_photos(base, 1, args.photos_each * 2, photos)
    one["memory_peak_mb"] = memory.peak_mb()
    memory.reset()
    scores: dict = {}
    score_thread = threading.Thread(
        target=lambda: scores.update(
            bench_score(base, args.score_clients, args.score_clients * args.scores_each)
        )
    )
    photo_result: dict = {}
    photo_thread = threading.Thread(
        target=lambda: photo_result.update(
            bench_photos(base, args.photo_clients, args.photos_each, photos)
        )
    )
    photo_thread.start()
    time.sleep(1.0)  # the queue is full before the first score
    score_thread.start()
    photo_thread.join()
    score_thread.join()
    photo_result["memory_peak_mb"] = memory.peak_mb()
    photo_result["throughput_vs_one_client"] = round(
        photo_result["photos_per_s"] / one["photos_per_s"], 2
    )
    return {"one_client": one, "hall": photo_result, "scores_while_reading": scores}


def bench_big(base: str, n: int, photos: list, memory: MemoryWatch) -> dict:
    """`n` uploads of a 48-megapixel photo at once: the memory they take."""
    import cv2
    import numpy as np

    img = cv2.imdecode(np.frombuffer(photos[0][1], np.uint8), cv2.IMREAD_COLOR)
    big = cv2.resize(img, (8000, 6000), interpolation=cv2.INTER_LINEAR)
    data = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    memory.reset()
    out = bench_photos(base, n, 1, [("big.jpg", data)])
    out["photo_mb"] = round(len(data) / 2**20, 1)
    out["memory_peak_mb"] = memory.peak_mb()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=20, help="score clients, scores alone")
    ap.add_argument("--requests", type=int, default=600, help="total score requests (bounded)")
    ap.add_argument("--photo-clients", type=int, default=20)
    ap.add_argument("--photos-each", type=int, default=5)
    ap.add_argument("--score-clients", type=int, default=20, help="while photos are read")
    ap.add_argument("--scores-each", type=int, default=30)
    ap.add_argument("--phone-size", action="store_true", help="photos scaled to 4032x3024")
    ap.add_argument("--big", type=int, default=0, help="then N 48-megapixel photos at once")
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    photos = bench_photos_files(args.phone_size)
    port = free_port()
    proc = start_server(port)
    base = f"http://127.0.0.1:{port}"
    memory = MemoryWatch(proc.pid)
    try:
        report: dict = {"cpus": os.cpu_count(), "load_average_at_start": os.getloadavg()}
        report["photos"] = {
            "count": len(photos),
            "mean_kb": sum(len(d) for _, d in photos) // len(photos) // 1024,
        }
        report["page_fetch_cold_ms"] = round(1000 * fetch_page(base), 1)
        warm = [fetch_page(base) for _ in range(10)]
        report["page_fetch_warm_ms_median"] = round(1000 * statistics.median(warm), 1)
        bench_score(base, 4, 40)  # warm-up: imports, first scoring
        report.update(bench_hall(base, args, photos, memory))
        if args.big:
            report["big_photos"] = bench_big(base, args.big, photos, memory)
        report["score_alone"] = bench_score(base, args.clients, args.requests)
        report["browser"] = None if args.no_browser else browser_load(base)
        report["load_average_at_end"] = os.getloadavg()
    finally:
        memory.stop.set()
        proc.terminate()
        proc.wait(10)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
