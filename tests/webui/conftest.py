"""Fixtures for the web page tests: the app with a photo reader that needs no model."""

from __future__ import annotations

import pytest

from tests.webui.photo_fixture import fake_recognize
from webui.app import create_app

#: the browser the page's tests drive (they skip where it is not installed)
CHROMIUM = "/usr/bin/chromium"

#: seed 001, 就高不就低: 门清 555666777p5556s, self-drawn on 7s = 48
SEED_HAND = "555666777p55567s"


def scorer_ready() -> bool:
    """Whether the whole scoring chain (notation, engine, payments, explanations) is installed."""
    try:
        from scorer.request import score_request

        score_request({"hand": SEED_HAND, "self_drawn": True})
    except ModuleNotFoundError:
        return False
    return True


needs_scorer = pytest.mark.skipif(
    not scorer_ready(), reason="the scoring engine is not installed yet"
)


@pytest.fixture()
def app(tmp_path):
    return create_app(
        {"TESTING": True, "MCR_RECOGNIZE": fake_recognize(), "MCR_DB": str(tmp_path / "games.db")}
    )


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
