"""Game sheet speed: recording a hand durably, and replaying sheets.

    python -m bench.bench_game [--games 20] [--db PATH]

Reports ms per recorded hand (one SQLite transaction, WAL, synchronous=FULL,
validated against the game so far), ms per replay of a 16-hand game, and
ms for the rankings over all the games. A table records a hand every few
minutes, so anything under ~50 ms per hand is plenty; the figure mostly
measures the disk's fsync.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scorer.game.replay import replay
from scorer.game.store import GameStore
from scorer.game.tournament import rank_players

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def hand(n: int) -> dict:
    if n % 5 == 0:
        return {"result": "draw"}
    winner = PLAYERS[n % 4]
    if n % 2:
        return {"result": "win", "winner": winner, "self_drawn": True, "fans": 8 + n}
    return {"result": "win", "winner": winner, "discarder": PLAYERS[(n + 1) % 4], "fans": 8 + n}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--db", help="database file (default: a temporary one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(args.db or Path(tmp) / "bench.sqlite3")
        record_ms = []
        ids = []
        for g in range(args.games):
            gid = store.create_game([f"{p}{g % 3}" for p in PLAYERS])
            ids.append(gid)
            names = store.game(gid)["players"]
            for n in range(1, 17):
                h = hand(n)
                for key in ("winner", "discarder"):
                    if key in h:
                        h[key] = names[PLAYERS.index(h[key])]
                t0 = time.perf_counter()
                store.record_hand(gid, h)
                record_ms.append((time.perf_counter() - t0) * 1000)
        game = store.game(ids[0])
        t0 = time.perf_counter()
        for _ in range(200):
            replay(game)
        replay_ms = (time.perf_counter() - t0) * 1000 / 200
        t0 = time.perf_counter()
        standings = rank_players(store.sheets())
        rank_ms = (time.perf_counter() - t0) * 1000
    record_ms.sort()
    print(f"recorded hands: {len(record_ms)}")
    print(
        f"record_hand ms: median {statistics.median(record_ms):.2f}, "
        f"p95 {record_ms[int(len(record_ms) * 0.95) - 1]:.2f}, max {record_ms[-1]:.2f}"
    )
    print(f"replay of a 16-hand game: {replay_ms:.3f} ms")
    print(
        f"rankings over {len(ids)} games from the database ({len(standings)} players): "
        f"{rank_ms:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
