"""The Flask app factory for the table page and its JSON API.

The web layer is deliberately thin: every answer comes from the same library
functions the command line uses (`scorer.request`, `vision.pipeline`), so the
page, the API and `mcr` can never disagree about a hand.
"""

from __future__ import annotations

import logging

from flask import Flask, Request
from werkzeug.formparser import FormDataParser

from webui import api, errors, game_views, library, security, views

#: uploads above this many bytes are refused with a JSON 413 before decoding
MAX_UPLOAD_BYTES = 25 * 1024 * 1024
#: the parts a form may hold: an upload sends its photo and the tiles the table named
#: (`exemplars`), the join page its PIN. Werkzeug's default, 1,000, lets each of many
#: uploads hold megabytes of small parts, which the allocator keeps after they are gone.
MAX_FORM_PARTS = 8
#: a form's text field held in memory: an upload's `exemplars` up to twice the longest,
#: so that the upload's own check names what is wrong with a field somewhat too long
MAX_FORM_FIELD_BYTES = 2 * api.MAX_EXEMPLAR_BYTES

log = logging.getLogger(__name__)


class FormRequest(Request):
    """A request whose unreadable form is remembered, not silently read as empty.

    Werkzeug drops a whole multipart body whose part headers are not UTF-8 or whose
    parts are cut short; `form_problem` lets the upload answer say so instead of
    "no photo was sent".
    """

    form_problem: str | None = None

    def make_form_data_parser(self) -> FormDataParser:
        parser = super().make_form_data_parser()
        parser.silent = False
        return parser

    def _load_form_data(self) -> None:
        try:
            super()._load_form_data()
        except ValueError as exc:  # UnicodeDecodeError included; size limits are HTTP errors
            self.form_problem = type(exc).__name__
            self.__dict__.update(
                form=self.parameter_storage_class(), files=self.parameter_storage_class()
            )


def create_app(config: dict | None = None) -> Flask:
    """Build the app; `config` overrides defaults (e.g. `MCR_RECOGNIZE` for a fake reader)."""
    app = Flask(__name__)
    app.request_class = FormRequest
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        MAX_FORM_PARTS=MAX_FORM_PARTS,
        MAX_FORM_MEMORY_SIZE=MAX_FORM_FIELD_BYTES,
        MCR_DB=None,  # None: the game store's own default, shared with `mcr game`
        # callable(data, name[, exemplars=]) -> dict; None: vision.pipeline.recognize
        MCR_RECOGNIZE=None,
        MCR_READERS=None,  # photos read at once; None: one per core
        MCR_PHOTO_QUEUE=None,  # photos that may wait; None: 16 per reader
        MCR_ALLOWED_HOSTS=None,  # Host names answered besides loopback (`mcr serve` sets them)
        MCR_PIN=None,  # the hall PIN game sheet changes need from other machines
    )
    if config:
        app.config.update(config)
    app.json.ensure_ascii = False  # Chinese fan names stay readable in responses
    app.json.sort_keys = False

    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(game_views.bp)
    app.register_blueprint(library.bp)
    errors.register(app)
    security.register(app)
    return app
