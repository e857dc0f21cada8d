"""Finding a host on the LAN: zeroconf (mDNS/DNS-SD) advertisement and browsing.

The host runs an :class:`Advertiser`; a player's client runs a :class:`Browser` and shows the
:class:`HostInfo` entries it keeps. Discovery is only a convenience: guest Wi-Fi, VPNs and WSL
often block multicast, so the host screen also shows :func:`local_addresses` for typing
``host:port`` by hand.

Everything here runs on the caller's asyncio loop (the async zeroconf API; no threads of our own)
and never imports Textual.

Wire format (service type :data:`SERVICE_TYPE`), TXT keys:

``proto``   protocol version (decimal); a client lists other versions as incompatible.
``game``    the game id chosen in the lobby ("" while undecided).
``players`` number of seated players (decimal).
``room``    the room name, UTF-8 (may be Russian), at most :data:`MAX_ROOM_BYTES` bytes.
``code``    "1" when ``hello`` needs the room code, "0" for an open room. The code itself is
            never advertised.
``id``      the room id: stable across ``--resume``, not secret.
``rev``     a counter bumped on every update (see :meth:`Advertiser.update` for why).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import logging
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ifaddr
from zeroconf import BadTypeInNameException, InterfaceChoice, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from games.rulebook import printable_line

__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "Browser",
    "HostInfo",
    "local_addresses",
    "local_networks",
]

log = logging.getLogger(__name__)

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

SERVICE_TYPE = "_hubbub._tcp.local."

#: Seconds the records live in a browser's cache (zeroconf's defaults: 120 s for the address,
#: 4,500 s for PTR and TXT). A live host is asked again before they run out; a crashed one, which
#: sends no goodbye, falls out of every list within this long.
RECORD_TTL = 75

#: Upper bound for the room name in the TXT record. One TXT string holds at most 255 bytes, and
#: ``room=`` takes 5 of them; 200 leaves room to spare and is far longer than any screen shows.
MAX_ROOM_BYTES = 200
#: Upper bound (characters) for any text taken from the network before it reaches the UI.
MAX_TEXT_CHARS = 64
#: DNS labels hold 63 bytes; keep room for zeroconf's own "-N" suffix on a name conflict.
_MAX_LABEL_BYTES = 56
#: How long :class:`Browser` waits for SRV/TXT/A answers after a service shows up (ms).
RESOLVE_TIMEOUT_MS = 3000
#: Upper bound for sending goodbye packets on close, so a SIGTERM exit never hangs on it.
_CLOSE_TIMEOUT_S = 1.0

_WILDCARDS = frozenset({"", "0.0.0.0", "::"})
# Adapter-name prefixes of bridges and VMs: their addresses are rarely reachable from another
# laptop, so they are listed (and advertised) after the real NICs.
_VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vmnet",
    "vboxnet",
    "lxc",
    "lxd",
    "tun",
    "tap",
    "wg",
    "zt",
    "tailscale",
    "utun",
)
# Bidi overrides/isolates can visually reorder a list row; control characters can drive the
# terminal. Neither belongs in a room name that some stranger on the Wi-Fi chose.


# --------------------------------------------------------------------------------------------
# Host information as seen by a client
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HostInfo:
    """One host found on the LAN, as a client's host list shows it.

    Built from untrusted network data: every text field is cleaned (no control characters,
    bounded length) and a TXT that does not parse yields ``protocol == 0`` — the host stays
    visible, marked incompatible, instead of vanishing without explanation.
    """

    name: str
    """Room name as the host typed it (TXT ``room``; the instance label if that is missing)."""
    addresses: tuple[str, ...]
    """Where to connect, IPv4 first; link-local IPv6 carries its ``%scope``."""
    port: int
    protocol: int
    """Protocol version; 0 when the TXT was missing or garbled."""
    game: str
    players: int
    needs_code: bool
    room_id: str
    service_name: str = ""
    """Full DNS-SD instance name (``label._hubbub._tcp.local.``): unique on the LAN."""

    @property
    def key(self) -> str:
        """Stable identity for dict keys and list selection.

        The service instance name survives TXT updates (players joining) and, because the
        instance label is derived from the room id, host restarts with ``--resume`` too. DNS
        names are case-insensitive, hence the lower-casing.
        """
        return (self.service_name or f"{self.name}.{SERVICE_TYPE}").lower()

    @property
    def address(self) -> str | None:
        """The preferred address to connect to, or None when none is known."""
        return self.addresses[0] if self.addresses else None

    def compatible(self, my_protocol: int) -> bool:
        """Whether a client speaking ``my_protocol`` can join this host.

        Versions must match exactly: the wire has no negotiation. Protocol 0 (garbage TXT)
        is never compatible.
        """
        return self.protocol > 0 and self.protocol == my_protocol

    @classmethod
    def from_service_info(
        cls, info: AsyncServiceInfo, local_networks: Sequence[IPNetwork] = ()
    ) -> HostInfo:
        """Parse a resolved zeroconf service; never raises on bad TXT contents.

        Addresses come out IPv4 first and, within a family, those on one of
        ``local_networks`` (see :func:`local_networks`) first: a host bound to all interfaces
        also advertises Docker/VPN addresses, and the record order on the wire is arbitrary.
        """
        label = info.name[: -len(SERVICE_TYPE) - 1] if info.name.endswith(SERVICE_TYPE) else ""
        txt = _decode_txt(info.properties)
        ok = True

        protocol = _parse_uint(txt.get("proto"))
        players = _parse_uint(txt.get("players"))
        code = txt.get("code")
        game = txt.get("game")
        if protocol is None or protocol == 0 or players is None or code not in ("0", "1"):
            ok = False
        if game is None:
            ok = False

        room = _clean_text(txt.get("room") or "") or _clean_text(label) or "?"
        addresses = _order_addresses(info.parsed_scoped_addresses(), local_networks)
        return cls(
            name=room,
            addresses=addresses,
            port=info.port or 0,
            protocol=protocol if ok and protocol is not None else 0,
            game=_clean_text(game or ""),
            players=players or 0,
            needs_code=code != "0",  # when in doubt, ask for a code: the host decides anyway
            room_id=_clean_text(txt.get("id") or ""),
            service_name=info.name,
        )


def _order_addresses(
    addresses: Iterable[str], local_networks: Sequence[IPNetwork]
) -> tuple[str, ...]:
    """IPv4 before IPv6; within each, addresses on a directly attached network first."""

    def rank(address: str) -> tuple[bool, bool]:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True, True
        return ip.version != 4, not any(ip in net for net in local_networks)

    return tuple(sorted(dict.fromkeys(addresses), key=rank))


def _decode_txt(properties: Mapping[bytes, bytes | None]) -> dict[str, str]:
    """TXT keys are case-insensitive ASCII (RFC 6763 §6.4); values are our UTF-8 text.

    Undecodable bytes become U+FFFD rather than an exception; valueless keys are dropped.
    """
    out: dict[str, str] = {}
    for raw_key, raw_value in properties.items():
        if raw_value is None:
            continue
        key = raw_key.decode("ascii", "replace").lower()
        out.setdefault(key, raw_value.decode("utf-8", "replace"))
    return out


def _parse_uint(value: str | None) -> int | None:
    """Parse a small non-negative decimal, or None: rejects "+1", " 1", non-ASCII digits, 10**99."""
    if value is None or not (0 < len(value) <= 9) or not value.isascii() or not value.isdigit():
        return None
    return int(value)


def _clean_text(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """Network text made safe to show (the one cleaner every layer uses), bounded."""
    return printable_line(text)[:limit]


def _truncate_utf8(text: str, max_bytes: int) -> str:
    """Cut text to at most max_bytes of UTF-8 without splitting a character."""
    return text.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")


# --------------------------------------------------------------------------------------------
# Local addresses
# --------------------------------------------------------------------------------------------


def _is_virtual(adapter_name: str) -> bool:
    return adapter_name.lower().startswith(_VIRTUAL_PREFIXES)


def _scan_addresses() -> tuple[list[str], list[str]]:
    """Non-loopback IPv4 and non-link-local IPv6 of this machine, best candidates first.

    Reads the interface table through ``ifaddr`` (already a zeroconf dependency) — no packet is
    sent. Real NICs come before bridges/VPNs, and IPv4 link-local (169.254/16) last, so the
    first address is the one most likely reachable from another laptop.
    """
    v4: list[tuple[tuple[bool, bool], str]] = []
    v6: list[tuple[tuple[bool, bool], str]] = []
    for adapter in ifaddr.get_adapters():
        adapter_name = str(adapter.nice_name or adapter.name)
        virtual = _is_virtual(str(adapter.name)) or _is_virtual(adapter_name)
        for ip in adapter.ips:
            try:
                if isinstance(ip.ip, str):
                    a4 = ipaddress.IPv4Address(ip.ip)
                    if a4.is_loopback or a4.is_unspecified or a4.is_multicast:
                        continue
                    v4.append(((virtual, a4.is_link_local), str(a4)))
                else:
                    a6 = ipaddress.IPv6Address(ip.ip[0].split("%")[0])
                    if (
                        a6.is_loopback
                        or a6.is_link_local
                        or a6.is_unspecified
                        or a6.is_multicast
                        or a6.ipv4_mapped is not None
                    ):
                        continue
                    # ULA (fd00::/8) counts: it is "scope global" to the kernel and is what a
                    # home router hands out; temporary/privacy addresses sort by NIC only.
                    v6.append(((virtual, False), str(a6)))
            except ValueError:
                continue
    v4.sort(key=lambda item: item[0])
    v6.sort(key=lambda item: item[0])
    return list(dict.fromkeys(a for _, a in v4)), list(dict.fromkeys(a for _, a in v6))


def local_networks() -> list[IPNetwork]:
    """List the networks this machine is directly attached to (loopback included), via ifaddr."""
    networks: list[IPNetwork] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0].split("%")[0]
            with contextlib.suppress(ValueError):
                networks.append(
                    ipaddress.ip_network(f"{address}/{ip.network_prefix}", strict=False)
                )
    return networks


def local_addresses() -> list[str]:
    """Addresses a player could type to reach this machine: IPv4 first, then global IPv6.

    Falls back to ``["127.0.0.1"]`` on a machine with no network, so the host screen always
    has something to show. Sends no traffic.
    """
    v4, v6 = _scan_addresses()
    return [*v4, *v6] or ["127.0.0.1"]


def _interfaces_for(interface: str | None) -> tuple[list[str] | InterfaceChoice, bool]:
    """Map the ``--interface`` option to zeroconf's ``interfaces`` and "is it all of them".

    A wildcard ("0.0.0.0", "::", "") means the same as None: the server binds everywhere, so
    discovery should too.
    """
    if interface is None or interface.strip() in _WILDCARDS:
        return InterfaceChoice.All, True
    try:
        ipaddress.ip_address(interface)
    except ValueError:
        raise ValueError(f"interface must be an IP address, got {interface!r}") from None
    return [interface], False


# --------------------------------------------------------------------------------------------
# Advertiser (host side)
# --------------------------------------------------------------------------------------------


class Advertiser:
    """Advertise one room on the LAN until :meth:`close`.

    The instance label is ``"<room name> (<tag>)"`` with a short tag derived from the room id.
    zeroconf's probing conflict resolution (``allow_name_change=True``, kept as a backstop)
    does not work between responders on one machine — a probe's unicast answer reaches only one
    of the sockets sharing port 5353 — and is skipped entirely in ``fast`` mode, so uniqueness is
    built into the name instead. Deriving the tag from the room id (not randomly) keeps the
    service name, and so a client's :attr:`HostInfo.key`, stable across ``--resume``.
    """

    def __init__(
        self,
        *,
        room_name: str,
        port: int,
        protocol: int,
        game: str,
        players: int,
        needs_code: bool,
        room_id: str,
        interface: str | None = None,
        fast: bool = False,
    ) -> None:
        """Prepare (not yet send) the advertisement.

        ``interface`` is the address the server is bound to (``--interface``): only it is
        advertised, and zeroconf talks only on it — tests pass ``"127.0.0.1"`` so that nothing
        leaves the machine. ``fast=True`` registers with ``cooperating_responders=True`` and
        skips the ~1.2 s probe; meant for tests, where every responder is ours.
        """
        if not 0 < port < 65536:
            raise ValueError(f"port out of range: {port}")
        self._interfaces, self._all_interfaces = _interfaces_for(interface)
        self._interface = interface
        self._fast = fast
        self._room_name = _clean_text(room_name, limit=MAX_ROOM_BYTES) or "hubbub"
        self._port = port
        self._protocol = protocol
        self._game = game
        self._players = players
        self._needs_code = needs_code
        self._room_id = room_id
        self._rev = 0
        self.announcements = 0  # updates actually sent (a test counts them)
        tag_source = room_id.encode("utf-8") if room_id else secrets.token_bytes(8)
        self._tag = hashlib.sha256(tag_source).hexdigest()[:4]
        # Our own host name rather than the machine's "<hostname>.local.": the OS responder
        # (avahi, mDNSResponder) owns that one, and two hosts on one machine must not share it.
        self._server = f"hubbub-{hashlib.sha256(tag_source).hexdigest()[:12]}.local."
        self._aiozc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._broadcast: asyncio.Future[Any] | None = None
        self._lock = asyncio.Lock()
        self._started = False
        self._closing: asyncio.Task[None] | None = None

    # -- public state --------------------------------------------------------------------

    @property
    def service_name(self) -> str | None:
        """The registered instance name (after any conflict renaming), or None before start."""
        return self._info.name if self._info is not None else None

    @property
    def addresses(self) -> list[str]:
        """The addresses this advertisement points clients to."""
        if not self._all_interfaces:
            assert self._interface is not None
            return [self._interface]
        v4, _ = _scan_addresses()
        return v4 or ["127.0.0.1"]

    @property
    def closed(self) -> bool:
        """True once close() has been called (even while it is still running)."""
        return self._closing is not None

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Open zeroconf and register the service.

        Takes ~1.2 s (probing) unless ``fast``. Raises OSError if the multicast sockets cannot
        be opened (no network, port 5353 unusable): the host should then carry on and rely on
        the typed address.
        """
        if self._started:
            raise RuntimeError("Advertiser.start() called twice")
        if self.closed:
            raise RuntimeError("Advertiser is closed")
        self._started = True
        async with self._lock:
            info = self._build_info(f"{self._label()}.{SERVICE_TYPE}")
            aiozc: AsyncZeroconf | None = None
            try:
                aiozc = AsyncZeroconf(interfaces=self._interfaces)
                self._broadcast = await aiozc.async_register_service(
                    info, allow_name_change=True, cooperating_responders=self._fast
                )
            except BaseException:
                self._started = False  # allow another try, e.g. once the network is up
                if aiozc is not None:
                    with contextlib.suppress(Exception):
                        await aiozc.async_close()
                raise
            self._aiozc, self._info = aiozc, info
            log.info("advertising %r on %s port %d", info.name, self.addresses, self._port)

    async def update(self, **changes: int | str | bool) -> None:
        """Change ``players``, ``game`` or ``needs_code`` and re-announce the TXT record.

        Every announcement carries a bumped ``rev``. Without it, going back to an earlier TXT
        (players 2 → 3 → 2) re-sends a record that browsers still hold in their caches: zeroconf
        then fires no update and may even resolve the host with no TXT at all. A TXT that is
        new every time is always seen as a change.

        Before :meth:`start` the values are only stored; after :meth:`close` this is a no-op,
        so a late player count from a shutting-down room cannot raise.
        """
        allowed = {"players", "game", "needs_code"}
        unknown = set(changes) - allowed
        if unknown:
            raise TypeError(f"cannot update {sorted(unknown)}; allowed: {sorted(allowed)}")
        async with self._lock:
            if self.closed:
                return
            if all(getattr(self, f"_{key}") == value for key, value in changes.items()):
                return  # nothing it says changed: the LAN hears nothing
            for key, value in changes.items():
                setattr(self, f"_{key}", value)
            if self._aiozc is None or self._info is None:
                return
            self._rev += 1
            self.announcements += 1
            info = self._build_info(self._info.name)
            self._cancel_broadcast()
            self._broadcast = await self._aiozc.async_update_service(info)
            self._info = info

    async def close(self) -> None:
        """Send goodbyes and close zeroconf. Idempotent, and safe from a SIGTERM task.

        Concurrent or repeated calls all wait for the same single shutdown; the shutdown itself
        is shielded, so cancelling a caller does not leave the sockets half-closed. Goodbyes are
        bounded by a timeout: exiting matters more than a perfect farewell.
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def __aenter__(self) -> Advertiser:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- internals ------------------------------------------------------------------------

    async def _close(self) -> None:
        async with self._lock:  # let a running start()/update() finish first
            aiozc, info = self._aiozc, self._info
            self._aiozc = self._info = None
            self._cancel_broadcast()
            if aiozc is None:
                return
            try:
                if info is not None:
                    goodbyes = await aiozc.async_unregister_service(info)
                    await asyncio.wait_for(goodbyes, _CLOSE_TIMEOUT_S)
            except Exception as exc:  # shutting down: report, never raise
                log.warning("zeroconf goodbye for %s failed: %r", info and info.name, exc)
            finally:
                try:
                    await asyncio.wait_for(aiozc.async_close(), _CLOSE_TIMEOUT_S)
                except Exception as exc:
                    log.warning("closing zeroconf failed: %r", exc)

    def _cancel_broadcast(self) -> None:
        """Stop repeating an older announcement so it cannot land after a newer one."""
        if self._broadcast is not None and not self._broadcast.done():
            self._broadcast.cancel()
        self._broadcast = None

    def _label(self) -> str:
        suffix = f" ({self._tag})"
        room = _truncate_utf8(self._room_name, _MAX_LABEL_BYTES - len(suffix)).rstrip()
        return f"{room}{suffix}"

    def _txt(self) -> dict[str, str]:
        return {
            "proto": str(int(self._protocol)),
            "game": _truncate_utf8(str(self._game), 100),
            "players": str(max(0, int(self._players))),
            "room": _truncate_utf8(self._room_name, MAX_ROOM_BYTES),
            "code": "1" if self._needs_code else "0",
            "id": _truncate_utf8(str(self._room_id), 100),
            "rev": str(self._rev),
        }

    def _build_info(self, name: str) -> AsyncServiceInfo:
        try:
            return AsyncServiceInfo(
                SERVICE_TYPE,
                name,
                port=self._port,
                properties=self._txt(),
                server=self._server,
                parsed_addresses=self.addresses,
                host_ttl=RECORD_TTL,
                other_ttl=RECORD_TTL,
            )
        except BadTypeInNameException as exc:  # pragma: no cover - _label() keeps names valid
            raise ValueError(f"cannot advertise room name {self._room_name!r}: {exc}") from exc


# --------------------------------------------------------------------------------------------
# Browser (client side)
# --------------------------------------------------------------------------------------------


class Browser:
    """Keep :attr:`hosts` in step with the hosts advertised on the LAN.

    ``on_change`` gets a fresh copy of the dict after every change that matters (a host
    appeared, its TXT/port/addresses changed, or it left). It runs on the event loop, so a
    Textual client can post a message from it directly. Resolution happens in tasks: zeroconf's
    handler must never block, and a slow or silent host must not delay the others.
    """

    def __init__(
        self,
        on_change: Callable[[dict[str, HostInfo]], None],
        *,
        interface: str | None = None,
    ) -> None:
        """``interface`` restricts zeroconf to one address (tests: ``"127.0.0.1"``)."""
        self._on_change = on_change
        self._interfaces, _ = _interfaces_for(interface)
        self.hosts: dict[str, HostInfo] = {}
        self._aiozc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._closing: asyncio.Task[None] | None = None

    @property
    def closed(self) -> bool:
        """True once close() has been called (even while it is still running)."""
        return self._closing is not None

    async def start(self) -> None:
        """Open zeroconf and start browsing. Raises OSError if multicast is unavailable."""
        if self._aiozc is not None:
            raise RuntimeError("Browser.start() called twice")
        if self.closed:
            raise RuntimeError("Browser is closed")
        aiozc = self._aiozc = AsyncZeroconf(interfaces=self._interfaces)
        try:
            # Wait for the sockets before browsing. Otherwise an early packet (a busy LAN)
            # starts a resolve task that awaits zeroconf's start-up future; when a newer event
            # cancels that task, the cancellation propagates into the shared future and the
            # instance raises NotRunningException on every later request (zeroconf 0.154).
            await aiozc.zeroconf.async_wait_for_start()
            self._browser = AsyncServiceBrowser(
                aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_service_state_change]
            )
        except BaseException:
            self._aiozc = None
            with contextlib.suppress(Exception):
                await aiozc.async_close()
            raise

    async def close(self) -> None:
        """Stop browsing and close zeroconf. Idempotent; concurrent callers share one shutdown."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def __aenter__(self) -> Browser:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _close(self) -> None:
        tasks = list(self._resolving.values())
        self._resolving.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        browser, aiozc = self._browser, self._aiozc
        self._browser = None
        try:
            if browser is not None:
                await browser.async_cancel()
            if aiozc is not None:
                await asyncio.wait_for(aiozc.async_close(), _CLOSE_TIMEOUT_S)
        except Exception as exc:  # shutting down: report, never raise
            log.warning("closing zeroconf browser failed: %r", exc)

    # -- zeroconf callbacks --------------------------------------------------------------

    def _on_service_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        """Handle a zeroconf state change: runs on the loop and must return at once."""
        if self.closed:
            return
        key = name.lower()
        pending = self._resolving.pop(key, None)
        if pending is not None:
            pending.cancel()  # a newer event supersedes it; resolving again reads the cache
        if state_change is ServiceStateChange.Removed:
            if self.hosts.pop(key, None) is not None:
                self._notify()
            return
        task = asyncio.ensure_future(self._resolve(zeroconf, service_type, name, key))
        self._resolving[key] = task
        task.add_done_callback(lambda t, k=key: self._resolved(k, t))

    async def _resolve(self, zeroconf: Zeroconf, service_type: str, name: str, key: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS):
            # No SRV/TXT/address in time: nothing to connect to. Keep any earlier, complete
            # entry; a later announcement or the Removed event will settle it.
            log.debug("could not resolve %r", name)
            return
        host = HostInfo.from_service_info(info, local_networks())
        if self.hosts.get(key) != host:
            self.hosts[key] = host
            self._notify()

    def _resolved(self, key: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(key) is task:
            del self._resolving[key]
        if not task.cancelled() and task.exception() is not None:
            log.warning("resolving %s failed", key, exc_info=task.exception())

    def _notify(self) -> None:
        try:
            self._on_change(dict(self.hosts))
        except Exception:  # a UI bug must not stop discovery
            log.exception("Browser on_change callback failed")
