"""The game sheet: seating and payments of a 16-hand game, its storage, rankings.

`replay(game)` turns recorded results into the sheet (CONTRACTS.md "Game
sheet replay"); `GameStore` keeps games in SQLite; `tournament` ranks
players and teams over many games.
"""

from scorer.game.replay import replay

__all__ = ["replay"]
