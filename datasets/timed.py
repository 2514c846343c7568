"""One training loop for the small models trained against a time budget (orientation,
stacked tile): AdamW, warm-up then cosine learning rate ending with the budget, a
progress bar, and a check every so many batches."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator

import torch
from tqdm import tqdm

from datasets.ledger import set_lr

Loss = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def train_for(
    model: torch.nn.Module,
    batches: Iterator[tuple[torch.Tensor, torch.Tensor]],
    loss_fn: Loss,
    lr: float,
    minutes: float,
    desc: str,
    check_every: int,
    check: Callable[[], str],
) -> int:
    """Train until `minutes` have passed; `check()` says how the model does, printed every
    `check_every` batches. Returns how many batches it took."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    budget = minutes * 60
    start = time.time()
    bar = tqdm(desc=desc, unit="batch", mininterval=10)
    step, loss_avg = 0, 0.0
    while time.time() - start < budget:
        x, y = next(batches)
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        set_lr(opt, lr, (time.time() - start) / budget)
        opt.step()
        loss_avg = 0.98 * loss_avg + 0.02 * loss.item() if step else loss.item()
        step += 1
        bar.update(1)
        if step % 50 == 0:
            bar.set_postfix(loss=f"{loss_avg:.3f}", refresh=False)
        if step % check_every == 0:
            tqdm.write(f"step {step} {time.time() - start:.0f}s loss {loss_avg:.3f} {check()}")
    bar.close()
    return step


def add_budget_options(
    p: argparse.ArgumentParser, out: str, minutes: float, check_every: int
) -> None:
    """The options every time-budgeted trainer takes, with its own defaults."""
    p.add_argument("--out", default=out)
    p.add_argument("--minutes", type=float, default=minutes, help="training time budget")
    p.add_argument("--workers", type=int, default=1, help="processes cutting crops / making views")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--check-every", type=int, default=check_every, help="batches between checks")
    p.add_argument("--seed", type=int, default=0)
