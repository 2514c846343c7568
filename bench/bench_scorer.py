"""Scorer speed: the batch path over random winning hands, and waiting analysis.

    python -m bench.bench_scorer [--hands 4000] [--runs 5] [--profile]

Reports the median over runs (wall clock and CPU time) of: ms per hand for the whole `mcr score
--batch` path in-process (JSON in, validation, scoring, explanation, JSON
out), ms per hand for `engine.score` alone, and ms per 13-tile hand for
`waits.winning_tiles` alone and for the full waits analysis (every winning
tile scored on a discard and on a self-draw). Targets: 0.5 ms per hand,
20 ms per waiting hand.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable

from scorer.commands import score_lines
from scorer.engine import score
from scorer.notation import format_hand
from scorer.randhands import random_hands, random_waiting_hands, to_request
from scorer.request import waits_report
from scorer.waits import winning_tiles

TARGET_HAND_MS = 0.5
TARGET_WAITS_MS = 20.0


def median_ms(func: Callable[[], object], count: int, runs: int) -> tuple[float, float]:
    """Median over `runs` of ms per item (wall clock, and CPU time of this process).

    The CPU time is the fairer figure on a shared machine: it does not count
    the time other processes hold the cores.
    """
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        func()
        wall.append((time.perf_counter() - start) * 1000 / count)
        cpu.append((time.process_time() - start_cpu) * 1000 / count)
    return statistics.median(wall), statistics.median(cpu)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--waiting", type=int, default=300, help="13-tile hands for the waits runs")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the batch path")
    args = ap.parse_args()

    pairs = list(random_hands(args.hands, args.seed))
    lines = [json.dumps(to_request(h, s)) for h, s in pairs]
    waiting = list(random_waiting_hands(args.waiting, args.seed))
    wait_requests = [{"hand": format_hand(h)} for h in waiting]

    gc.freeze()  # as `run_batch` does before the first line

    def batch() -> None:
        for out in score_lines(lines):
            if out.startswith('{"error"'):
                raise SystemExit(f"a generated hand was rejected: {out}")

    def engine_only() -> None:
        for h, s in pairs:
            score(h, s)

    results = {
        "hands": args.hands,
        "runs": args.runs,
        "batch_ms_per_hand": median_ms(batch, args.hands, args.runs),
        "engine_ms_per_hand": median_ms(engine_only, args.hands, args.runs),
        "waiting_hands": args.waiting,
        "winning_tiles_ms_per_hand": median_ms(
            lambda: [winning_tiles(h) for h in waiting], args.waiting, args.runs
        ),
        "waits_report_ms_per_hand": median_ms(
            lambda: [waits_report(r) for r in wait_requests], args.waiting, args.runs
        ),
    }
    results["batch_meets_target"] = results["batch_ms_per_hand"][0] <= TARGET_HAND_MS
    results["waits_meets_target"] = results["waits_report_ms_per_hand"][0] <= TARGET_WAITS_MS
    results["load_average"] = os.getloadavg()[0]
    print(f"{'':28} {'wall ms':>9} {'cpu ms':>9}")
    for key, value in results.items():
        if isinstance(value, tuple):
            print(f"{key:28} {value[0]:9.3f} {value[1]:9.3f}")
        else:
            print(f"{key:28} {value}")
    if args.profile:
        prof = cProfile.Profile()
        prof.runcall(batch)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
