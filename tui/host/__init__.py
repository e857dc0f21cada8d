"""The host's table app."""
