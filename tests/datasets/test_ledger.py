"""Training that accumulates: a checkpoint resumes the same model, optimizer and counts, and
the log sums what every run added. Needs torch (the `train` extra)."""

from __future__ import annotations

import argparse
import json

import pytest

torch = pytest.importorskip("torch")

from datasets import ledger  # noqa: E402


def _model_and_opt():
    model = torch.nn.Linear(4, 3)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model(torch.randn(8, 4)).sum().backward()
    opt.step()
    return model, opt


def test_a_checkpoint_resumes_weights_moments_and_counts(tmp_path) -> None:
    model, opt = _model_and_opt()
    path = tmp_path / "m.pt"
    ledger.save(path, model, opt, 120, 3600.0, {"frozen_norms": True})
    again, opt2 = torch.nn.Linear(4, 3), None
    opt2 = torch.optim.AdamW(again.parameters(), lr=1e-3)
    steps, seconds, extra = ledger.load(path, again, opt2)
    assert (steps, seconds, extra) == (120, 3600.0, {"frozen_norms": True})
    assert torch.equal(again.weight, model.weight)
    moment = opt.state_dict()["state"][0]["exp_avg"]
    back = opt2.state_dict()["state"][0]["exp_avg"]
    assert back.dtype == torch.float32 and torch.allclose(back, moment, rtol=1e-2, atol=1e-6)


def test_the_log_sums_the_runs_of_one_model(tmp_path) -> None:
    log = tmp_path / "log.jsonl"
    ledger.append_log(
        {"model": "detector", "steps_before": 0, "steps_after": 150, "seconds": 1800}, log
    )
    ledger.append_log(
        {"model": "detector", "steps_before": 150, "steps_after": 400, "seconds": 1800}, log
    )
    ledger.append_log(
        {"model": "classifier", "steps_before": 0, "steps_after": 9, "seconds": 60}, log
    )
    assert ledger.totals("detector", log) == {"runs": 2, "steps": 400, "hours": 1.0}
    assert all("date" in json.loads(line) for line in log.read_text().splitlines())


def test_a_run_thrown_away_is_logged_but_not_counted(tmp_path) -> None:
    """A run tried from another checkpoint and thrown away (its model's checkpoint put
    back) stays in the log, but the model never had its steps."""
    log = tmp_path / "log.jsonl"
    ledger.append_log(
        {"model": "second", "steps_before": 0, "steps_after": 100, "seconds": 3600}, log
    )
    ledger.append_log(
        {"model": "second", "steps_before": 900, "steps_after": 950, "seconds": 1800,
         "discarded": True}, log
    )  # fmt: skip
    assert ledger.totals("second", log) == {"runs": 1, "steps": 100, "hours": 1.0}
    assert len(log.read_text().splitlines()) == 2


def test_a_run_counts_its_steps_and_keeps_the_checkpoint(tmp_path) -> None:
    model, opt = _model_and_opt()
    args = argparse.Namespace(lr=1e-3, max_minutes=0, save_minutes=0, resume=str(tmp_path / "r.pt"))
    run = ledger.Run(args, model, opt, total=10, steps=40, seconds=0.0, frozen=False)
    for _ in range(3):
        model(torch.randn(8, 4)).sum().backward()
        run.step()
    assert (run.steps, run.done) == (43, 3)
    run.save()
    assert ledger.load(tmp_path / "r.pt", torch.nn.Linear(4, 3), None)[0] == 43
    assert opt.param_groups[0]["lr"] < 1e-3  # past the warm-up, on the cosine


def test_the_schedule_warms_up_then_decays() -> None:
    model, opt = _model_and_opt()
    lrs = []
    for progress in (0.0, 0.05, 0.5, 1.0):
        ledger.set_lr(opt, 1.0, progress)
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs[0] == pytest.approx(0.1) and lrs[1] == pytest.approx(1.0)
    assert lrs[1] > lrs[2] > lrs[3] == pytest.approx(0.01)
