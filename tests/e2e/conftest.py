"""The tmux fixture of test_tmux.py, for every end-to-end test in this folder."""

from tests.e2e.test_tmux import tmux  # noqa: F401
