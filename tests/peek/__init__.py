"""Peek's words (`en.toml`, `ru.toml` beside this file). Peek itself is `tests.fakegame`; both
are found the way any game's are (tests/plugin holds the entry points of a distribution that
ships them), or registered by hand for one test (`tests/conftest.py`, `peek`)."""
