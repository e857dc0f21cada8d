"""Who may knock, and how often: the host's defences against a stranger on the Wi-Fi.

A guest Wi-Fi is shared. The room code is 4 of 24 letters (331,776 codes): without a limit a
laptop tries thousands a second. So, per address (an IPv6 address counts by its /64, which one
laptop can rotate through):

- **wrong codes**: a few are free (typos happen); after them each attempt must wait, twice as
  long as the one before, up to a minute — guessing every code from one laptop takes months.
  A right code forgives the address. The host screen sees every address that failed, and the
  host can block one for good.
- **hellos**: a budget per address and per seat (a token bucket), so a client in a reconnect
  loop cannot make the host send everyone a view a hundred times a second.

Pure bookkeeping with an injectable clock; the server asks before it acts.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FREE_TRIES = 5
"""Wrong codes an address may try before it has to wait."""
MAX_WAIT = 60.0
"""The longest wait between two tries, reached at the twelfth wrong code."""
HELLO_BURST = 20
"""Hellos an address may send at once (a whole family's laptops behind one NAT, say)."""
HELLOS_PER_SECOND = 2.0
SEAT_BURST = 6
"""Reconnects of one seat in a row before it must slow down (a flaky Wi-Fi needs far fewer)."""
SEAT_HELLOS_PER_SECOND = 0.5


def address_key(address: str) -> str:
    """The unit a limit applies to: an IPv4 address, or the /64 of an IPv6 one."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass
class Bucket:
    """A token bucket: `burst` at once, then `rate` a second."""

    burst: float
    rate: float
    tokens: float = -1.0
    at: float = 0.0

    def take(self, now: float) -> float:
        """0 if a token was taken, else the seconds until one is there."""
        if self.tokens < 0:
            self.tokens, self.at = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


@dataclass
class Knocks:
    """What one address has done."""

    failures: int = 0  # wrong codes since its last right one
    tried: int = 0  # wrong codes ever
    next_try: float = 0.0
    last: float = 0.0
    hellos: Bucket = field(default_factory=lambda: Bucket(HELLO_BURST, HELLOS_PER_SECOND))


class Doorman:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.knocks: dict[str, Knocks] = {}
        self.blocked: set[str] = set()
        self._seats: dict[str, Bucket] = {}

    def _of(self, address: str) -> Knocks:
        return self.knocks.setdefault(address_key(address), Knocks())

    def is_blocked(self, address: str) -> bool:
        return address_key(address) in self.blocked

    def block(self, address: str) -> None:
        self.blocked.add(address_key(address))

    def hello(self, address: str) -> float:
        """A connection says hello: 0, or how long this address must wait first."""
        return self._of(address).hellos.take(self.clock())

    def seat_hello(self, seat_token: str) -> float:
        """A seat comes back with its token: 0, or how long it must wait first."""
        if len(self._seats) > 1000:  # tokens change (kicks, claims): forget the old ones
            self._seats.clear()
        bucket = self._seats.setdefault(seat_token, Bucket(SEAT_BURST, SEAT_HELLOS_PER_SECOND))
        return bucket.take(self.clock())

    def code_wait(self, address: str) -> float:
        """Seconds before this address may try a code again (0: now)."""
        return max(0.0, self._of(address).next_try - self.clock())

    def wrong_code(self, address: str) -> float:
        """A wrong code: returns how long the address must wait before its next try."""
        knocks = self._of(address)
        now = self.clock()
        knocks.failures += 1
        knocks.tried += 1
        knocks.last = now
        extra = knocks.failures - FREE_TRIES
        wait = min(MAX_WAIT, 2.0 ** (extra - 1)) if extra > 0 else 0.0
        knocks.next_try = now + wait
        return wait

    def right_code(self, address: str) -> None:
        knocks = self._of(address)
        knocks.failures = 0
        knocks.next_try = 0.0

    def suspects(self) -> list[tuple[str, Knocks]]:
        """Addresses that got the code wrong more than the free tries, the worst first."""
        found = [(a, k) for a, k in self.knocks.items() if k.tried > FREE_TRIES]
        return sorted(found, key=lambda item: (-item[1].tried, item[0]))


def seconds_to_try_every_code(codes: int = 24**4) -> float:
    """How long one address needs to try `codes` codes, every wait respected."""
    total, wait = 0.0, 0.0
    for failures in range(1, codes + 1):
        total += wait
        extra = failures - FREE_TRIES
        wait = min(MAX_WAIT, 2.0 ** (extra - 1)) if extra > 0 else 0.0
        if wait == MAX_WAIT:
            return total + (codes - failures) * MAX_WAIT
    return total
