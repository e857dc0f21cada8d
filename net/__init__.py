"""The wire and the room: framing, messages, the host server, the client, discovery. No Textual."""
