"""Game sheet pages and their JSON API under /game.

The pages are thin: the sheet is always `GameStore.sheet`, i.e. the same
replay the command line prints. Errors under /game/api/ are
`{"error": {"code", "message"}}` with a 4xx status, as everywhere else.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from scorer.errors import McrError
from scorer.game import csvio
from scorer.game.checks import HAND_FIELDS, PENALTY_FIELDS
from scorer.game.errors import GameError
from scorer.game.store import GameStore
from scorer.game.tournament import rank_players, rank_teams
from webui.errors import (
    RequestError,
    error_response,
    request_lang,
    retry_headers,
    status_for,
)
from webui.guard import parse_object

bp = Blueprint(
    "game",
    __name__,
    url_prefix="/game",
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
)


# the blueprint answers its own errors, also when mounted on a bare app
bp.register_error_handler(McrError, error_response)

#: the fields each write takes besides a hand's own
GAME_FIELDS = frozenset({"players", "name", "tournament", "session", "table", "teams", "who"})
RECORD_FIELDS = HAND_FIELDS | {"who", "expected_number", "request_id"}
EDIT_FIELDS = HAND_FIELDS | {"who", "expected_revision"}
UNDO_FIELDS = frozenset({"who", "number"})
GAME_PENALTY_FIELDS = PENALTY_FIELDS | {"who"}


def store() -> GameStore:
    """The app's store, opened once per database path."""
    path = current_app.config.get("MCR_DB")
    cache: dict[str, GameStore] = current_app.extensions.setdefault("mcr_game_stores", {})
    key = str(path or "")
    if key not in cache:
        cache[key] = GameStore(path or None)
    return cache[key]


@bp.app_template_filter("points")
def points_filter(value: float | int) -> str:
    """标准分 for people: shares like 7/3 shown as 2.33."""
    return f"{round(float(value), 2):g}"


def _body(fields: frozenset[str], optional: bool = False) -> dict[str, Any]:
    """The JSON object of the request (bounded by `webui.guard`), with only `fields`."""
    raw = request.get_data(cache=True)
    if optional and not raw.strip():
        return {}
    data = parse_object(raw)
    GameError.refuse_unknown(data, fields | {"lang"})
    return data


def _who(data: dict[str, Any]) -> str:
    who = data.get("who", "")
    if not isinstance(who, str):
        raise RequestError("bad_request.text", field="who")
    return who


def _hand_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k in HAND_FIELDS}


# ----- pages ------------------------------------------------------------------


@bp.get("/")
def index_page():
    return render_template("game/index.html", games=store().list_games())


@bp.get("/<int:game_id>")
def sheet_page(game_id: int):
    try:
        sheet = store().sheet(game_id)
    except McrError as exc:
        message, status = exc.message_in(request_lang()), status_for(exc)
        page = render_template("game/message.html", message=message)
        return page, status, retry_headers(exc, status)
    return render_template("game/sheet.html", sheet=sheet)


@bp.get("/rankings")
def rankings_page():
    tournament = request.args.get("tournament") or None
    players, teams = _rankings(tournament)
    return render_template(
        "game/rankings.html", players=players, teams=teams, tournament=tournament or ""
    )


# ----- API --------------------------------------------------------------------


@bp.get("/api/games")
def api_games():
    return jsonify(store().list_games(request.args.get("tournament")))


@bp.post("/api/games")
def api_new_game():
    data = _body(GAME_FIELDS)
    details = {k: data.get(k) for k in ("name", "tournament", "table")}
    session = data.get("session")
    if session is not None and (isinstance(session, bool) or not isinstance(session, int)):
        raise RequestError("bad_request.whole_number", field="session")
    for key, value in details.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, str | int)):
            raise RequestError("bad_request.text", field=key)
    s = store()
    game_id = s.create_game(
        data.get("players"),
        name=str(details["name"] or ""),
        tournament=str(details["tournament"] or ""),
        session=session,
        table=str(details["table"] or ""),
        who=_who(data),
        teams=data.get("teams"),
    )
    return jsonify(s.sheet_after_change(game_id)), 201


@bp.get("/api/<int:game_id>")
def api_sheet(game_id: int):
    return jsonify(store().sheet(game_id))


@bp.get("/api/<int:game_id>/audit")
def api_audit(game_id: int):
    return jsonify(store().audit_trail(game_id))


@bp.post("/api/<int:game_id>/hands")
def api_record(game_id: int):
    """Record the next hand. Body: a hand as in the replay contract, plus
    optional `winner_seat`/`discarder_seat` instead of names, `hand`
    (notation), `who`, and against double taps and retries `expected_number`
    and `request_id` (a hand already recorded under that id answers 200
    with its number instead of being recorded again)."""
    data = _body(RECORD_FIELDS)
    expected = data.get("expected_number")
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        raise RequestError("bad_request.whole_number", field="expected_number")
    s = store()
    number, recorded = s.record_hand_once(
        game_id, _hand_fields(data), _who(data), expected, data.get("request_id")
    )
    return jsonify(
        {"number": number, "sheet": s.sheet_after_change(game_id)}
    ), 201 if recorded else 200


@bp.put("/api/<int:game_id>/hands/<int:number>")
def api_edit(game_id: int, number: int):
    """Correct hand `number`. Body: the hand as for recording, `who`, and
    `expected_revision`, the hand's `revision` as the sheet gave it (the page always
    sends it): if another tablet changed or undid that hand since, the answer is 409
    and nothing is saved. Without it (a script) the hand is replaced."""
    data = _body(EDIT_FIELDS)
    s = store()
    s.edit_hand(
        game_id, number, _hand_fields(data), who=_who(data), revision=data.get("expected_revision")
    )
    return jsonify({"number": number, "sheet": s.sheet_after_change(game_id)})


@bp.post("/api/<int:game_id>/undo")
def api_undo(game_id: int):
    """Remove the last hand. Body: `number`, the hand the caller sees last (required: a
    second undo of the same hand, from another tablet or a retry, answers 409 and
    removes nothing), and `who`."""
    data = _body(UNDO_FIELDS, optional=True)
    number = data.get("number")
    if number is None:
        raise GameError("missing_field", field="number")
    s = store()
    removed = s.undo_last(game_id, who=_who(data), number=number)
    return jsonify({"removed": removed, "sheet": s.sheet_after_change(game_id)})


@bp.post("/api/<int:game_id>/penalties")
def api_game_penalty(game_id: int):
    """A penalty on the whole game (lateness): `{"player", "kind", "points"}`."""
    data = _body(GAME_PENALTY_FIELDS)
    s = store()
    penalty = {k: data[k] for k in PENALTY_FIELDS if k in data}
    s.add_game_penalty(game_id, penalty, who=_who(data))
    return jsonify(s.sheet_after_change(game_id)), 201


@bp.get("/api/<int:game_id>/sheet.csv")
def api_sheet_csv(game_id: int):
    text = csvio.sheet_to_csv(store().sheet(game_id))
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="game-{game_id}.csv"'},
    )


def _rankings(tournament: str | None) -> tuple[list[dict], list[dict]]:
    s = store()
    sheets = s.sheets(tournament)
    teams = s.teams(tournament) if tournament is not None else {}
    players = [x.to_json() for x in rank_players(sheets, teams)]
    team_rows = [x.to_json() for x in rank_teams(sheets, teams)] if any(teams.values()) else []
    return players, team_rows


@bp.get("/api/rankings")
def api_rankings():
    players, teams = _rankings(request.args.get("tournament") or None)
    return jsonify({"players": players, "teams": teams})


@bp.get("/api/rankings.csv")
def api_rankings_csv():
    tournament = request.args.get("tournament") or None
    s = store()
    sheets = s.sheets(tournament)
    teams = s.teams(tournament) if tournament is not None else {}
    standings = (
        rank_teams(sheets, teams) if request.args.get("teams") else rank_players(sheets, teams)
    )
    return Response(
        csvio.rankings_to_csv(standings),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="rankings.csv"'},
    )
