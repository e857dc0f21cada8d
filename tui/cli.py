"""`hubbub host` and `hubbub join`: argument parsing, then one of the two apps."""

from __future__ import annotations

import argparse
import getpass
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from net.protocol import DEFAULT_PORT, DEFAULT_WEB_PORT

if TYPE_CHECKING:
    from net.client import EarlyLink, TokenStore

"""The browser seats' port: the table's own, plus one."""


def build_parser() -> argparse.ArgumentParser:
    from games.base import game_entries
    from net.seats import GRACE

    parser = argparse.ArgumentParser(
        prog="hubbub", description="Terminal party games for a room of laptops."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    host = commands.add_parser("host", help="run the table (put it on the big screen)")
    host.add_argument("--game", choices=sorted(game_entries()), help="the game to start with")
    host.add_argument(
        "--port", type=int, help=f"TCP port ({DEFAULT_PORT}; with --resume: the saved one)"
    )
    host.add_argument(
        "--interface", metavar="ADDR", help="listen and advertise on this address only"
    )
    host.add_argument("--open", action="store_true", help="no room code needed to join")
    host.add_argument("--resume", action="store_true", help="bring back the last table")
    host.add_argument("--name", help="the room's name (default: this computer's name)")
    host.add_argument("--save", type=Path, help="the save file (default: in the state dir)")
    host.add_argument("--no-zeroconf", action="store_true", help="don't advertise on the LAN")
    host.add_argument(
        "--web-port",
        type=int,
        help=f"HTTP port of the browser seats ({DEFAULT_WEB_PORT}; with --resume: the saved one)",
    )
    host.add_argument("--no-web", action="store_true", help="no browser seats")
    host.add_argument("--deck", type=Path, help="a group's own deck file (docs/DECKS.md)")
    host.add_argument("--lang", choices=("ru", "en"), help="language (default: the locale's)")
    host.add_argument(
        "--grace",
        type=int,
        choices=GRACE.choices,
        help=f"seconds an away player's seat waits before a bot plays it (T-Rex, which has no "
        f"bot: before it sits out); 0 waits for them (default {GRACE.default})",
    )

    join = commands.add_parser("join", help="join a table as a player")
    join.add_argument("address", nargs="?", help="HOST[:PORT]; leave out to find hosts")
    join.add_argument("--name", default="", help="your name at the table")
    join.add_argument("--interface", metavar="ADDR", help="look for hosts on this address only")
    join.add_argument("--no-zeroconf", action="store_true", help="don't look for hosts")
    join.add_argument("--lang", choices=("ru", "en"), help="language (default: the locale's)")
    join.add_argument(
        "--watch", action="store_true", help="watch the table without a seat (an audience)"
    )
    join.add_argument(
        "--no-bell", action="store_true", help="no terminal bell when the table waits for you"
    )
    join.add_argument(
        "--only-this-table",
        action="store_true",
        help="stay at ADDRESS: no list of tables, no other address (the host's web seats)",
    )

    keys = commands.add_parser("keys", help="list every key and how to remap it")
    keys.add_argument("--lang", choices=("ru", "en"), help="language (default: the locale's)")
    commands.add_parser(
        "schema", help="print the wire's JSON Schema: every message and each game's view"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from tui.i18n import set_lang

    set_lang(getattr(args, "lang", None))
    lenient_input()
    if args.command == "schema":
        return run_schema()
    if args.command == "host":
        return run_host(args)
    if args.command == "keys":
        return run_keys()
    return run_join(args)


INPUT_DRIVERS = (
    "textual.drivers.linux_driver",
    "textual.drivers.linux_inline_driver",
    "textual.drivers.web_driver",
)


def lenient_input() -> None:
    """A byte on the app's input that is not UTF-8 — a terminal set to KOI8-R or CP1251, a
    binary paste, a browser page's forged packet — ended the app with a traceback in
    Textual's input thread (`UnicodeDecodeError`). Its drivers read with `errors="replace"`
    instead: the byte becomes U+FFFD, which a field takes or a screen refuses like any key."""
    import codecs
    import contextlib
    import functools
    import importlib

    def decoder(encoding: str) -> Callable[[], codecs.IncrementalDecoder]:
        return functools.partial(codecs.getincrementaldecoder(encoding), errors="replace")

    for name in INPUT_DRIVERS:
        with contextlib.suppress(ImportError):  # (no termios on Windows)
            importlib.import_module(name).getincrementaldecoder = decoder


def run_schema() -> int:
    """The wire's types (`net/wire.py`, `games/<game>/wire.py`) as JSON Schema, on stdout."""
    import json

    from net.wire import schema

    print(json.dumps(schema(), indent=2, ensure_ascii=False))
    return 0


def run_keys() -> int:
    """Every key of both apps by its binding id, as remapped by the keymap file, and any
    id in that file that names no key (a typo would otherwise change nothing, silently)."""
    from tui.i18n import t
    from tui.widgets import all_bindings, keymap_file, load_keymap

    keymap, ids = load_keymap(), set()
    print(f'# {keymap_file()}  ([keys] binding-id = "key,key")')
    for binding in all_bindings():
        ids.add(binding.id)
        described = t(binding.description) if binding.description else ""
        remapped = "  (remapped)" if binding.id in keymap else ""
        print(f"{binding.id:<32} {keymap.get(binding.id, binding.key):<16} {described}{remapped}")
    unknown = sorted(set(keymap) - ids)
    for key in unknown:
        print(f"hubbub: {keymap_file()}: no key is called {key!r}", file=sys.stderr)
    return 1 if unknown else 0


def run_host(args: argparse.Namespace) -> int:
    from net.client import state_dir
    from net.handles import raise_file_limit
    from net.room import Room
    from net.seats import HostSettings
    from net.snapshot import ResumeError
    from tui.host.app import HostApp
    from tui.i18n import lang, set_lang, t

    save = args.save or state_dir() / "table.save"
    if args.resume:
        if not save.exists():
            print(
                f"hubbub: there is no saved table to resume ({save}).\n"
                "Start a new one with: hubbub host",
                file=sys.stderr,
            )
            return 2
        try:
            room = Room.resume(save)
        except ResumeError as exc:
            print(f"hubbub: {exc}", file=sys.stderr)
            return 2
        saved = room.settings  # as it was started; a flag given again wins
        settings = HostSettings(
            port=args.port if args.port is not None else saved.port,
            interface=args.interface or saved.interface,
            lang=args.lang or saved.lang,
            advertise=saved.advertise and not args.no_zeroconf,
            web_port=None if args.no_web else args.web_port or saved.web_port,
            blocked=list(saved.blocked),  # a stranger turned away stays away
        )
        set_lang(settings.lang)
    else:
        settings = HostSettings(
            port=args.port,
            interface=args.interface,
            lang=args.lang,  # (None: the locale's, guessed anew when it is resumed)
            advertise=not args.no_zeroconf,
            web_port=None if args.no_web else args.web_port or DEFAULT_WEB_PORT,
        )
        default_name = f"{getpass.getuser()}@{socket.gethostname()}"
        room = Room(
            args.name or default_name,
            game_id=args.game,
            open_room=args.open,
            save_path=save,
            settings=settings,
        )
    if args.deck and (problem := check_deck(room, args.deck, lang())):
        print(f"hubbub: {problem}", file=sys.stderr)
        return 2
    room.host_with(settings, grace=args.grace, deck=str(args.deck) if args.deck else None)
    raise_file_limit()  # every handle the system allows: nobody is kept out for want of one
    app = HostApp(
        room,
        host=settings.interface,
        port=DEFAULT_PORT if settings.port is None else settings.port,
        advertise=settings.advertise,
        web_port=settings.web_port,
    )
    app.run()
    if app.return_code == 1 and room.save_path is not None:  # an error ended it: a crash
        print(t("host.crashed_resume_hint"), file=sys.stderr)
    return app.return_code or 0


def check_deck(room, path: Path, language: str) -> str | None:
    """Every mistake in a group's deck, said before the table opens (None: the deck is fine)."""
    from games import GAMES

    game = GAMES.get(room.game_id or "")
    if game is None or not game.takes_deck:
        takers = ", ".join(g for g, v in GAMES.items() if v.takes_deck)
        return f"{room.game_id} takes no deck file (games that do: {takers}); use --game"
    try:
        game.check_deck(str(path), language)
    except ValueError as exc:  # DeckError: file, line, field, what is wrong
        return str(exc)
    return None


def web_relay() -> dict[str, str] | None:
    """A web seat's app (started by the host's web gateway): the browser's address, and the
    key that lets the table believe it."""
    key, address = os.environ.get("HUBBUB_RELAY_KEY"), os.environ.get("HUBBUB_RELAY_ADDRESS")
    return {"key": key, "address": address} if key and address else None


def run_join(args: argparse.Namespace) -> int:
    from net.client import TokenStore, parse_address, state_dir

    address = None
    if args.address:
        try:
            address = parse_address(args.address)
        except ValueError as exc:
            print(f"hubbub: {exc}", file=sys.stderr)
            return 2
    tokens = TokenStore()
    relay = web_relay() if args.only_this_table else None
    early = early_link(address, tokens, name=args.name, watch=args.watch, relay=relay)
    from tui.client.app import ClientApp  # Textual: a second or so, while `early` connects
    from tui.client.drafts import FILE, Drafts

    # a web seat's app dies with a killed host: what its hand has not sent is kept for the
    # next one, in the browser's own state directory (a laptop's app lives on: nothing kept)
    drafts = Drafts(state_dir() / FILE) if args.only_this_table else None

    app = ClientApp(
        address,
        name=args.name,
        browse_interface=args.interface,
        discover=not args.no_zeroconf,
        only_this_table=args.only_this_table,
        bell=not args.no_bell,
        watch=args.watch,
        relay=relay,
        tokens=tokens,
        early=early,
        drafts=drafts,
        shown_address=os.environ.get("HUBBUB_WEB_ADDRESS") if args.only_this_table else None,
    )
    app.run()
    return app.return_code or 0


def early_link(
    address: tuple[str, int] | None,
    tokens: TokenStore,
    *,
    name: str,
    watch: bool,
    relay: dict[str, str] | None,
) -> EarlyLink | None:
    """The table's connection, opened before the player app loads, when the command line
    says all its `hello` will (an address, and a name, a saved seat or `--watch`): the table
    sees the player a second sooner. None when the app has to ask first."""
    from net.client import Client, EarlyLink, seat_name

    if address is None:
        return None
    host, port = address
    seat = "" if watch else seat_name(tokens, f"{host}:{port}", name)
    if seat is None:
        return None
    hello = Client(host, port, name=seat, tokens=tokens, watch=watch, relay=relay).greeting()
    return EarlyLink(host, port, hello)  # the very hello the app's first session would say


if __name__ == "__main__":
    sys.exit(main())
