"""Training that accumulates: one committed checkpoint per model and a log of every run.

These machines have two cores and only sometimes a GPU, so no single run
trains a model to the end. Each run starts from `models/checkpoints/NAME.pt`
(the weights, the optimizer's moments and the steps and seconds trained so
far), trains for its time budget, writes the checkpoint back and appends one
line to `models/checkpoints/log.jsonl`: the model, the steps before and
after, the minutes, the device, the data and the figures measured at the
end. The shipped ONNX file is exported from the same weights, so the next
run continues the model that ships.

The weights are stored in float32 and the optimizer's moments in bfloat16,
which keeps a 1.2 M-parameter checkpoint near 10 MB.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import torch
import torch.nn as nn

from datasets.onnx_init import freeze_norms

CHECKPOINTS = Path(__file__).resolve().parents[1] / "models" / "checkpoints"
LOG = CHECKPOINTS / "log.jsonl"


def _small(state: dict) -> dict:
    """The optimizer state with its moment tensors in bfloat16."""
    out = {"param_groups": state["param_groups"], "state": {}}
    for key, slot in state["state"].items():
        out["state"][key] = {
            k: v.to(torch.bfloat16) if torch.is_tensor(v) and v.numel() > 1 else v
            for k, v in slot.items()
        }
    return out


def _full(state: dict) -> dict:
    out = {"param_groups": state["param_groups"], "state": {}}
    for key, slot in state["state"].items():
        out["state"][key] = {
            k: v.float() if torch.is_tensor(v) and v.dtype == torch.bfloat16 else v
            for k, v in slot.items()
        }
    return out


def save(
    path: Path,
    model: nn.Module,
    opt: torch.optim.Optimizer,
    steps: int,
    seconds: float,
    extra: dict | None = None,
) -> None:
    """Write the checkpoint atomically (a killed run leaves the previous one whole); `extra`
    holds what the trainer needs to rebuild the run (say, norms kept frozen)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {
        "model": {k: v.detach().cpu() for k, v in model.state_dict().items()},
        "optimizer": _small(opt.state_dict()),
        "steps": int(steps),
        "seconds": float(seconds),
        "extra": extra or {},
    }
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    tmp.replace(path)


def load(
    path: Path, model: nn.Module, opt: torch.optim.Optimizer | None
) -> tuple[int, float, dict]:
    """Load weights (and the optimizer's state when given); the steps and seconds so far
    and the trainer's `extra`."""
    state = torch.load(path, map_location="cpu", weights_only=True)
    model.load_state_dict(state["model"])
    if opt is not None and state.get("optimizer"):
        opt.load_state_dict(_full(state["optimizer"]))
    return int(state.get("steps", 0)), float(state.get("seconds", 0.0)), state.get("extra", {})


def resume(
    path: str | None, model: nn.Module, opt: torch.optim.Optimizer, frozen: bool
) -> tuple[int, float, bool]:
    """Continue from the run's checkpoint when there is one: the steps and seconds so far,
    and whether the norms stay frozen (then frozen again on `model`)."""
    steps, seconds = 0, 0.0
    if path and Path(path).is_file():
        steps, seconds, extra = load(Path(path), model, opt)
        frozen = bool(extra.get("frozen_norms", frozen))
        print(f"resumed {path}: {steps} steps, {seconds / 3600:.2f} h so far", flush=True)
    if frozen:
        freeze_norms(model)
    return steps, seconds, frozen


def append_log(entry: dict, log: Path = LOG) -> None:
    """One run's line: what it trained on, how long, and what it measured."""
    log.parent.mkdir(parents=True, exist_ok=True)
    entry = {"date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), **entry}
    with log.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=False) + "\n")


def totals(model: str, log: Path = LOG) -> dict[str, float]:
    """Runs, steps and hours a model has had, summed over the log. A run whose weights
    were thrown away (`"discarded": true`: its checkpoint put back as it was) is logged
    for the record but is no part of the model."""
    runs = steps = seconds = 0
    if log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry.get("model") == model and not entry.get("discarded"):
                runs += 1
                steps += entry.get("steps_after", 0) - entry.get("steps_before", 0)
                seconds += entry.get("seconds", 0.0)
    return {"runs": runs, "steps": steps, "hours": round(seconds / 3600, 2)}


def set_lr(opt: torch.optim.Optimizer, peak: float, progress: float) -> None:
    """Linear warm-up over the first 5 %, then cosine decay to 1 % of the peak."""
    progress = min(max(progress, 0.0), 1.0)
    if progress < 0.05:
        lr = peak * (0.1 + 0.9 * progress / 0.05)
    else:
        lr = peak * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * (progress - 0.05) / 0.95)))
    for g in opt.param_groups:
        g["lr"] = lr


class Run:
    """One run of a resumable trainer: its steps, its learning-rate schedule (over its steps,
    or its time budget when that ends first) and its checkpoints.

    `args` needs `lr`, `max_minutes`, `save_minutes` and `resume` (the checkpoint, or None
    for a run that keeps none); `frozen` says the fine-tune keeps its norms frozen, which a
    resumed run must do again.
    """

    def __init__(self, args, model, opt, total: int, steps: int, seconds: float, frozen: bool):
        self.args, self.model, self.opt, self.total = args, model, opt, max(total, 1)
        self.steps, self.seconds_before, self.frozen = steps, seconds, frozen
        self.done = 0  # steps of this run
        self.started = self.saved = time.time()
        self.budget = args.max_minutes * 60

    def elapsed(self) -> float:
        return time.time() - self.started

    def out_of_time(self) -> bool:
        return bool(self.budget) and self.elapsed() > self.budget

    def step(self) -> None:
        """The optimizer's step at this point of the schedule (gradients computed), counted,
        and the checkpoint written when `save_minutes` have passed."""
        progress = self.done / self.total
        if self.budget:  # finish the schedule within the time budget on a slow machine
            progress = max(progress, self.elapsed() / self.budget)
        set_lr(self.opt, self.args.lr, progress)
        self.opt.step()
        self.steps, self.done = self.steps + 1, self.done + 1
        if self.args.save_minutes and time.time() - self.saved > 60 * self.args.save_minutes:
            self.save()

    def save(self) -> None:
        """The run's checkpoint (when it has one), with the steps and seconds so far."""
        if not self.args.resume:
            return
        seconds = self.seconds_before + self.elapsed()
        save(Path(self.args.resume), self.model, self.opt, self.steps, seconds,
             {"frozen_norms": self.frozen})  # fmt: skip
        self.saved = time.time()
