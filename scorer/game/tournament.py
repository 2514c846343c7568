"""Individual and team rankings over the games of a tournament (第十一条).

A tournament is several sessions (局), each played on several tables;
every table is one game replayed by `scorer.game.replay`. Players rank by
the sum of their 标准分; ties are broken, in order, by the sum of their
比赛分 (局分), then the best single-game 标准分, then how many games
reached the high single-game 标准分 (compared from the highest value
down). Teams rank the same way over all their members' games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scorer.game import rules
from scorer.game.errors import GameError
from scorer.game.replay import check_name, replay, team_name


@dataclass
class Standing:
    """One line of a ranking (a player or a team)."""

    name: str
    team: str = ""
    table_points: Fraction = Fraction(0)
    scores: int = 0
    games: int = 0
    #: 标准分 of every single game, for the last two tie-breaks
    game_points: list[Fraction] = field(default_factory=list)
    rank: int = 0

    @property
    def best(self) -> Fraction:
        return max(self.game_points, default=Fraction(0))

    def add(self, points: Fraction, score: int) -> None:
        self.table_points += points
        self.scores += score
        self.games += 1
        self.game_points.append(points)

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "name": self.name,
            "team": self.team,
            "table_points": rules.number(self.table_points),
            "scores": self.scores,
            "best": rules.number(self.best),
            "games": self.games,
        }


def _high_counts(standing: Standing, values: list[Fraction]) -> tuple[int, ...]:
    return tuple(standing.game_points.count(v) for v in values)


def _order(standings: list[Standing]) -> list[Standing]:
    """Sort by the 第十一条 keys and give equal keys the same rank."""
    values = sorted({v for s in standings for v in s.game_points}, reverse=True)

    def key(s: Standing) -> tuple:
        return (s.table_points, s.scores, s.best, _high_counts(s, values))

    ordered = sorted(standings, key=lambda s: (key(s), _neg_name(s.name)), reverse=True)
    for i, s in enumerate(ordered):
        if i and key(s) == key(ordered[i - 1]):
            s.rank = ordered[i - 1].rank
        else:
            s.rank = i + 1
    return ordered


def _neg_name(name: str) -> tuple[int, ...]:
    # reverse=True sort, but fully tied entries should list alphabetically
    return tuple(-ord(c) for c in name)


def game_results(sheet: dict[str, Any]) -> list[tuple[str, Fraction, int]]:
    """(player, 标准分, 局分) of one replayed game, with exact shares."""
    points = rules.table_points(sheet["scores"])
    return [(p, points[p], sheet["scores"][p]) for p in sheet["players"]]


def rank_players(
    sheets: Iterable[dict[str, Any]], teams: dict[str, str] | None = None
) -> list[Standing]:
    """Individual ranking over replayed game sheets."""
    teams = teams or {}
    by_player: dict[str, Standing] = {}
    for sheet in sheets:
        for player, points, score in game_results(sheet):
            st = by_player.setdefault(player, Standing(player, teams.get(player, "")))
            st.add(points, score)
    for player, team in teams.items():
        by_player.setdefault(player, Standing(player, team))
    return _order(list(by_player.values()))


def rank_teams(sheets: Iterable[dict[str, Any]], teams: dict[str, str]) -> list[Standing]:
    """Team ranking: the members' games added together (第十一条)."""
    by_team: dict[str, Standing] = {}
    for sheet in sheets:
        for player, points, score in game_results(sheet):
            team = teams.get(player)
            if not team:
                continue
            st = by_team.setdefault(team, Standing(team, team))
            st.add(points, score)
    for team in set(teams.values()):
        if team:
            by_team.setdefault(team, Standing(team, team))
    return _order(list(by_team.values()))


def _teams(raw: Any) -> dict[str, str]:
    """`players` as a list of names, or a mapping name -> team; names as the games'
    sheets keep them (`check_name`), so a registered "Ann " is the player "Ann"."""
    if isinstance(raw, dict):
        pairs = list(raw.items())
    elif isinstance(raw, list) and all(isinstance(p, str) for p in raw):
        pairs = [(p, "") for p in raw]
    else:
        raise GameError("bad_tournament.players")
    teams: dict[str, str] = {}
    for name, team in pairs:
        if not isinstance(team, str):
            raise GameError("bad_tournament.team", name=repr(name))
        player, clean = check_name(name), team_name(team)
        if player in teams:
            raise GameError("duplicate_player", names=player)
        if clean is None:
            raise GameError("bad_tournament.team", name=repr(name))
        teams[player] = clean
    return teams


def tournament_rankings(tournament: dict[str, Any]) -> dict[str, Any]:
    """Rankings of a whole tournament given as JSON.

    Input: `{"players": {name: team} or [names], "sessions": [[game, ...], ...]}`,
    each game as for `replay`. A player may sit at one table per session
    and must be a registered player.
    """
    if not isinstance(tournament, dict):
        raise GameError("bad_tournament")
    teams = _teams(tournament.get("players", []))
    sessions = tournament.get("sessions")
    if not isinstance(sessions, list):
        raise GameError("bad_tournament.sessions")
    sheets = []
    for s, tables in enumerate(sessions, 1):
        if not isinstance(tables, list):
            raise GameError("bad_tournament.session").at("session", s)
        seated: set[str] = set()
        for t, game in enumerate(tables, 1):
            try:
                sheet = replay(game)
            except GameError as exc:
                raise exc.at("table", t).at("session", s) from None
            for p in sheet["players"]:
                if teams and p not in teams:
                    raise (
                        GameError("unknown_player.registered", name=repr(p))
                        .at("table", t)
                        .at("session", s)
                    )
                if p in seated:
                    raise GameError("bad_tournament.two_tables", name=repr(p)).at("session", s)
                seated.add(p)
            sheets.append(sheet)
    has_teams = any(teams.values())
    return {
        "players": [s.to_json() for s in rank_players(sheets, teams)],
        "teams": [s.to_json() for s in rank_teams(sheets, teams)] if has_teams else [],
    }
