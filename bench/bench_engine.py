"""Engine-only speed: `engine.score` and `waits.winning_tiles`, cold and warm caches.

    python -m bench.bench_engine [--hands 4000] [--runs 3]

Reports the median over runs of ms per hand, measured both as wall time and
as process CPU time (the CPU figure is steadier on a shared, busy machine).
"Cold" empties the decomposition caches before each run; "warm" scores the
same hands again. Targets: 0.5 ms per hand, 20 ms per 13-tile waiting hand.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from scorer import combos, engine, forms
from scorer.randhands import random_hands, random_waiting_hands
from scorer.waits import winning_tiles


def timed(func, count: int) -> tuple[float, float]:
    """(wall ms, cpu ms) per item for one call of `func`."""
    w0, c0 = time.perf_counter(), time.process_time()
    func()
    return ((time.perf_counter() - w0) * 1000 / count, (time.process_time() - c0) * 1000 / count)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    hands = list(random_hands(args.hands, seed=args.seed))
    waiting = list(random_waiting_hands(min(args.hands, 500), seed=args.seed))

    def score_all() -> None:
        for hand, sit in hands:
            engine.score(hand, sit)

    def waits_all() -> None:
        for hand in waiting:
            winning_tiles(hand)

    rows: dict[str, list[tuple[float, float]]] = {
        "score_cold": [],
        "score_warm": [],
        "waits_cold": [],
    }
    for _ in range(args.runs):
        forms.clear_caches()
        combos.best_combination.cache_clear()
        rows["score_cold"].append(timed(score_all, len(hands)))
        rows["score_warm"].append(timed(score_all, len(hands)))
        forms.clear_caches()
        rows["waits_cold"].append(timed(waits_all, len(waiting)))
    print(f"{'hands':<24}{len(hands)}")
    print(f"{'waiting_hands':<24}{len(waiting)}")
    for name, vals in rows.items():
        wall = statistics.median(v[0] for v in vals)
        cpu = statistics.median(v[1] for v in vals)
        print(f"{name + '_ms':<24}wall {wall:.3f}  cpu {cpu:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
