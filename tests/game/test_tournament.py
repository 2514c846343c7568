"""Individual and team rankings with the tie-breaks of seed 000 第十一条."""

from __future__ import annotations

import itertools

import pytest

from scorer.game.errors import GameError
from scorer.game.tournament import rank_players, rank_teams, tournament_rankings

_fill = itertools.count()


def table(**scores: int) -> dict:
    """A table's sheet with the named players' 局分, filled up to four with others."""
    while len(scores) < 4:
        scores[f"x{next(_fill)}"] = 500
    return {"players": list(scores), "scores": dict(scores)}


def order(standings, *names):
    ranked = {s.name: s.rank for s in standings}
    return [ranked[n] for n in names]


def test_sum_of_table_points_first():
    sheets = [
        table(p=600, q=550, r=450, s=400),
        table(q=600, p=560, r=450, s=390),
        table(q=600, p=400, r=450, s=550),
    ]
    ranked = rank_players(sheets)
    # q: 2 + 4 + 4 = 10, p: 4 + 2 + 0 = 6, even though p's 局分 sum is close
    assert order(ranked, "q", "p") == [1, 2]
    assert ranked[0].name == "q" and float(ranked[0].table_points) == 10


def test_then_sum_of_scores():
    sheets = [table(p=600, a=550, b=450, c=400), table(q=550, d=540, e=460, f=450)]
    assert order(rank_players(sheets), "p", "q") == [1, 2]


def test_then_best_single_game():
    # both 4 标准分 and 1000 局分: p has a 4 (a first place), q only 2 + 2
    sheets = [
        table(p=600, a=550, b=450, c=550 - 150),
        table(a1=700, a2=650, a3=600, p=400),
        table(b1=510, q=500, b2=300, b3=200),
        table(c1=700, q=500, c2=300, c3=200),
    ]
    ranked = rank_players(sheets)
    p, q = (next(s for s in ranked if s.name == n) for n in "pq")
    assert (p.table_points, p.scores) == (q.table_points, q.scores) == (4, 1000)
    assert order(ranked, "p", "q") == [1, 2]


def test_then_count_of_high_single_games():
    # p: 4, 4, 0, 0 and q: 4, 2, 2, 0 -- equal sums (8 and 2000), equal best (4);
    # p reached the high score more often
    sheets = [
        table(p=600, a=550, b=450, c=400),
        table(p=600, d=550, e=450, f=400),
        table(p=400, g=600, h=500, i=450),
        table(p=400, j=600, k=500, l=450),
        table(q=600, m=550, n=450, o=400),
        table(q=520, r=700, s=300, t=280),
        table(q=480, u=700, v=300, w=280),
        table(q=400, y=700, z=600, z1=500),
    ]
    ranked = rank_players(sheets)
    p, q = (next(s for s in ranked if s.name == n) for n in "pq")
    assert (p.table_points, p.scores, p.best) == (q.table_points, q.scores, q.best) == (8, 2000, 4)
    assert order(ranked, "p", "q") == [1, 2]


def test_complete_tie_shares_the_rank():
    sheets = [table(p=600, q=400, a=500, b=500), table(q=600, p=400, c=500, d=500)]
    ranked = rank_players(sheets)
    assert order(ranked, "p", "q") == [1, 1]
    assert [s.rank for s in ranked][:3] == [1, 1, 3]


def test_team_ranking_adds_members():
    teams = {"p": "Red", "q": "Red", "r": "Blue", "s": "Blue"}
    sheets = [table(p=600, r=550, q=450, s=400), table(r=600, s=550, p=450, q=400)]
    ranked = rank_teams(sheets, teams)
    # Red: 4 + 1 + 1 + 0 = 6, Blue: 2 + 0 + 4 + 2 = 8
    assert [(s.name, float(s.table_points)) for s in ranked] == [("Blue", 8.0), ("Red", 6.0)]


def game(*players, winner=None):
    winner = winner or players[0]
    return {
        "players": list(players),
        "hands": [{"result": "win", "winner": winner, "self_drawn": True, "fans": 8}],
    }


def test_tournament_json_sessions_and_tables():
    t = {
        "players": {n: ("T1" if n in "abcd" else "T2") for n in "abcdefgh"},
        "sessions": [
            [game("a", "b", "c", "d"), game("e", "f", "g", "h")],
            [game("a", "e", "b", "f", winner="e"), game("c", "g", "d", "h", winner="h")],
        ],
    }
    result = tournament_rankings(t)
    names = [r["name"] for r in result["players"]]
    assert sorted(names) == list("abcdefgh")
    assert result["players"][0]["rank"] == 1 and result["players"][0]["games"] == 2
    assert {r["name"] for r in result["teams"]} == {"T1", "T2"}


def test_tournament_json_errors():
    with pytest.raises(GameError):
        tournament_rankings(
            {
                "players": list("abcd"),
                "sessions": [[game("a", "b", "c", "d"), game("a", "e", "f", "g")]],
            }
        )
    with pytest.raises(GameError) as err:
        tournament_rankings({"players": list("abcd"), "sessions": [[game("a", "b", "c", "z")]]})
    assert err.value.code == "unknown_player"
    with pytest.raises(GameError):
        tournament_rankings({"players": list("abcd"), "sessions": "none"})
