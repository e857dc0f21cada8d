"""The player's app."""
