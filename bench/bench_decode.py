"""Measure layout reading + rule-aware decoding on synthetic winning hands with noisy reads.

Random legal winning hands (some sets exposed as melds with their claimed
tile sideways, the winning tile set apart) are laid out, turned by a random
multiple of 90°, tilted (--tilt) and jittered; a simulated classifier misreads each tile
with probability --error (the wrong class on top, the true one second).
Reports how often the first guesses alone give the right hand, how often
decoding does, how often decoding returns a *wrong* legal hand, whether
the turn was found, and the decoding time.

    python -m bench.bench_decode [--hands 500] [--error 0.05] [--seed 0] [--tilt 15]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from scorer.hand import Hand, Meld, MeldKind
from scorer.notation import format_hand
from scorer.tiles import CODES
from vision.readhand import read_hand
from vision.synthetic import GAP, reads_for, row


def random_hand(rng: random.Random) -> tuple[Hand, list[str], list[str]]:
    """A legal 4-sets-and-a-pair hand and its two rows of layout tokens (melds, hand)."""
    while True:
        counts = [0] * 34
        sets: list[tuple[str, int]] = []
        for _ in range(4):
            if rng.random() < 0.5:
                base = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
                sets.append(("chow", base))
                for t in (base, base + 1, base + 2):
                    counts[t] += 1
            else:
                t = rng.randrange(34)
                sets.append(("pung", t))
                counts[t] += 3
        pair = rng.randrange(34)
        counts[pair] += 2
        if max(counts) <= 4:
            break
    n_exposed = rng.randint(0, 4)
    melds, meld_tokens, concealed = [], [], [pair, pair]
    for k, (kind, t) in enumerate(sets):
        tiles = [t, t + 1, t + 2] if kind == "chow" else [t, t, t]
        if k >= n_exposed:
            concealed.extend(tiles)
            continue
        pos = rng.randrange(3)
        claimed = pos + 1
        melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PUNG, t, claimed))
        meld_tokens += [CODES[x] + ("/" if i == pos else "") for i, x in enumerate(tiles)] + [GAP]
    rng.shuffle(concealed)
    winning = concealed.pop()
    hand = Hand(tuple(melds), tuple(sorted(concealed)), winning)
    hand_tokens = [CODES[t] for t in sorted(concealed)] + [GAP, CODES[winning]]
    return hand, meld_tokens, hand_tokens


def noisy_reads(
    tokens: list[tuple[str, tuple]], rng: random.Random, error: float, rotation: int, tilt: float
):
    seconds = {}
    for k, (code, _) in enumerate(tokens):
        if rng.random() < error:
            true = CODES.index(code)
            wrong = rng.choice([t for t in range(34) if t != true])
            seconds[k] = (CODES[wrong], code)
    return reads_for(
        tokens,
        rotation=rotation,
        jitter=2.0,
        seed=rng.randrange(1 << 30),
        seconds=seconds,
        shuffle=True,
        degrees=rng.uniform(-tilt, tilt),
    ), len(seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--error", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--tilt", type=float, default=0.0, help="tilt the photo up to this many degrees"
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    first_ok = decoded_ok = wrong_legal = none = turned_ok = errors_total = 0
    times = []
    for _ in range(args.hands):
        hand, meld_tokens, hand_tokens = random_hand(rng)
        tiles = row(meld_tokens, y=100) + row(hand_tokens, y=300)
        rotation = rng.choice([0, 90, 180, 270])
        reads, n_err = noisy_reads(tiles, rng, args.error, rotation, args.tilt)
        errors_total += n_err
        truth = format_hand(hand)
        start = time.perf_counter()
        reads, layout, result = read_hand(reads)
        times.append(time.perf_counter() - start)
        turned_ok += layout.rotation == rotation
        first_ok += n_err == 0 and result.notation == truth
        if result.notation == truth:
            decoded_ok += 1
        elif result.notation is None:
            none += 1
        else:
            wrong_legal += 1
    n = args.hands
    t = np.array(times) * 1000
    print(f"hands {n}, misread tiles {errors_total} (rate {args.error})")
    print(f"turn found:             {turned_ok / n:.1%}")
    print(f"right with first guess: {first_ok / n:.1%}")
    print(f"right after decoding:   {decoded_ok / n:.1%}")
    print(f"wrong legal hand:       {wrong_legal / n:.1%}")
    print(f"no hand (null):         {none / n:.1%}")
    print(
        f"layout+decode ms: p50 {np.percentile(t, 50):.1f}  p95 {np.percentile(t, 95):.1f}  "
        f"max {t.max():.1f}"
    )


if __name__ == "__main__":
    main()
