"""Textual apps: the host's table and each player's private screen."""
