"""The rules of hubbub's games: pure Python, no I/O, no clock, no randomness of their own."""

from games.base import CHANCE, GAMES, HOST, Bot, Game, IllegalAction, Option, register

__all__ = ["CHANCE", "GAMES", "HOST", "Bot", "Game", "IllegalAction", "Option", "register"]

# Each game registers itself in GAMES when imported (after the names above exist).
from games import tallyup, tesauro, trex  # noqa: F401
