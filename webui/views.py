"""The page blueprint: one page that does capture, fixing, scoring and checking."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("page", __name__)


@bp.get("/")
def index():
    return render_template("index.html", game=True)
