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

Per-address waits hold one laptop, not a stranger with many addresses: 250 addresses on a /24
check 250 codes a minute, a quarter of the 4-letter codes in a 5-hour party. So the wrong
codes of every address together are counted too: past `ATTACK_WRONG_CODES` the table is
under attack, and the server gives it a 6-letter code (191 million codes) for the rest of the
evening (docs/RELIABILITY.md, "Many addresses").

Pure bookkeeping with an injectable clock; the server asks before it acts.
"""

from __future__ import annotations

import heapq
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from net.protocol import CODE_LENGTH, LONG_CODE_LENGTH

FREE_TRIES = 5
"""Wrong codes an address may try before it has to wait."""
MAX_WAIT = 60.0
"""The longest wait between two tries, reached at the twelfth wrong code."""
QUIET_AFTER = 300.0
"""Seconds after its last wrong code that an address is no longer a suspect: the host's banner
about it goes (five times the longest wait, so a guesser who keeps at it stays on it)."""
HELLO_BURST = 20
"""Hellos an address may send at once (a whole family's laptops behind one NAT, say)."""
HELLOS_PER_SECOND = 2.0
SEAT_BURST = 6
"""Reconnects of one seat in a row before it must slow down (a flaky Wi-Fi needs far fewer)."""
SEAT_HELLOS_PER_SECOND = 0.5
LETTERS = 24
"""Letters a room code is made of (`net.seats.CODE_LETTERS`: the alphabet without I and O)."""
ATTACK_WRONG_CODES = 100
"""Wrong codes from every address together after which the table is under attack: its code
becomes longer. A whole evening's typos come nowhere near (one laptop, 5 free tries and then
one a minute, needs an hour and a half of wrong codes on its own); a stranger's hundred
guesses find a 4-letter code once in 3,300 evenings."""


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
        self.wrong_codes = 0
        """Wrong codes from every address together, since the host started."""

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
        self.wrong_codes += 1
        knocks.last = now
        extra = knocks.failures - FREE_TRIES
        wait = min(MAX_WAIT, 2.0 ** (extra - 1)) if extra > 0 else 0.0
        knocks.next_try = now + wait
        return wait

    def right_code(self, address: str) -> None:
        knocks = self._of(address)
        knocks.failures = 0
        knocks.next_try = 0.0

    @property
    def under_attack(self) -> bool:
        """Many wrong codes, whoever sent them: more than typos, more than one laptop."""
        return self.wrong_codes >= ATTACK_WRONG_CODES

    def guessers(self) -> int:
        """How many addresses got the code wrong (the host's screen says so)."""
        return sum(1 for knocks in self.knocks.values() if knocks.tried)

    def suspects(self) -> list[tuple[str, Knocks]]:
        """Addresses that got the code wrong more than the free tries since their last right
        one and not quiet since (`QUIET_AFTER`), the worst first. A guest who mistyped and then
        sat down is no suspect: the banner about them went on all game, and its `!` offered to
        close their own phone's seat."""
        now = self.clock()
        found = [
            (a, k)
            for a, k in self.knocks.items()
            if k.failures > FREE_TRIES and now - k.last < QUIET_AFTER
        ]
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


def party_guesses(addresses: int, seconds: float, *, lengthens: bool = True) -> tuple[int, int]:
    """Codes a stranger with `addresses` addresses gets checked in `seconds`, every address
    trying again the moment its wait is over: (at the short code, at the long code the table
    has once it is under attack). A real Doorman on a made-up clock; `lengthens=False` is a
    table that keeps its short code (as before the table-wide count)."""
    clock = [0.0]
    doorman = Doorman(clock=lambda: clock[0])
    due = [(0.0, number) for number in range(addresses)]  # (when it may try, which address)
    short = long = 0
    while due and due[0][0] <= seconds:
        clock[0], number = heapq.heappop(due)
        if lengthens and doorman.under_attack:
            long += 1
        else:
            short += 1
        wait = doorman.wrong_code(f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}")
        heapq.heappush(due, (clock[0] + wait, number))
    return short, long


def chance_to_find(short: int, long: int) -> float:
    """The chance that `short` guesses at a short code, then `long` at a long one, find the
    code (each guess a code not tried before: the best a guesser can do)."""
    miss_short = 1 - min(1.0, short / LETTERS**CODE_LENGTH)
    miss_long = 1 - min(1.0, long / LETTERS**LONG_CODE_LENGTH)
    return 1 - miss_short * miss_long
