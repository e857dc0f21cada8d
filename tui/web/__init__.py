"""A seat from any browser on the LAN: the host serves the player app over HTTP
(`gateway.py`), one browser's tokens in a directory of its own (`sessions.py`), and the
address as a QR code for phones (`qr.py`)."""
