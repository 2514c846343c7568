"""A recording process killed with SIGKILL loses no acknowledged hand."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from scorer.game.store import GameStore

ROOT = Path(__file__).resolve().parents[2]

# The "server": records hands as fast as it can and acknowledges each one
# on stdout only after `record_hand` returned (i.e. after the commit).
SERVER = textwrap.dedent("""
    import sys
    from scorer.game.store import GameStore
    store = GameStore(sys.argv[1])
    players = ["A", "B", "C", "D"]
    while True:
        gid = store.create_game(players)
        for n in range(1, 17):
            hand = {"result": "win", "winner": players[n % 4], "self_drawn": n % 2 == 0,
                    "fans": 8 + n}
            if n % 2:
                hand["discarder"] = players[(n + 1) % 4]
            store.record_hand(gid, hand)
            print(f"ack {gid} {n}", flush=True)
""")


def expected_winner(n: int) -> str:
    return "ABCD"[n % 4]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_acknowledged_hands_survive_sigkill(tmp_path):
    db = tmp_path / "crash.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(db)], stdout=subprocess.PIPE, text=True, env=env
    )
    acked: list[tuple[int, int]] = []
    deadline = time.monotonic() + 40
    try:
        assert proc.stdout is not None
        while len(acked) < 25 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            _, gid, n = line.split()
            acked.append((int(gid), int(n)))
    finally:
        proc.send_signal(signal.SIGKILL)  # mid-way: it is still recording
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert len(acked) >= 10, f"the recording process acknowledged only {len(acked)} hands"

    store = GameStore(db)  # "restart"
    for gid, n in acked:
        hands = store.game(gid)["hands"]
        assert len(hands) >= n, f"game {gid} lost acknowledged hand {n}"
        assert hands[n - 1]["winner"] == expected_winner(n)
        assert hands[n - 1]["fans"] == 8 + n
    # and the database is consistent enough to keep recording
    last_gid = acked[-1][0]
    if len(store.game(last_gid)["hands"]) < 16:
        store.record_hand(last_gid, {"result": "draw"})
