"""The rules of hubbub's games: pure Python, no I/O, no clock, no randomness of their own."""

from games.base import CHANCE, GAMES, HOST, Bot, Game, IllegalAction, Option, register

__all__ = ["CHANCE", "GAMES", "HOST", "Bot", "Game", "IllegalAction", "Option", "register"]

# The shipped games register themselves in GAMES the first time it is looked at.
