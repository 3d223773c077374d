"""Dashboard logins: a one-time login ticket becomes a session cookie.

`procler dashboard` answers a URL with a login ticket that works once, within LOGIN_LIFE
seconds. Exchanging it sets an HttpOnly, SameSite=Strict session cookie; a request that
changes something with that cookie must also carry the session's CSRF token in a header
(the page gets it in a meta tag), so a cross-site form cannot act with the cookie.
"""

import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

LOGIN_LIFE = 60.0  # seconds a login URL works
SESSION_LIFE = 12 * 3600.0  # seconds a session lasts
HELD = 64  # outstanding tickets (and sessions) at most; the oldest goes first
COOKIE = "procler_session"
CSRF_HEADER = b"x-procler-csrf"
V = TypeVar("V")


@dataclass(frozen=True)
class Session:
    csrf: str
    expires: float  # monotonic


def _bounded(held: "dict[str, V]") -> None:
    while len(held) >= HELD:
        held.pop(next(iter(held)))


def same_secret(held: str, offered: str) -> bool:
    """Whether offered is held, compared in constant time, as bytes: an offered value may
    be any text a client sends (`%C3%A9` in a query, latin-1 in a cookie), which
    compare_digest refuses to compare as str (TypeError: a 500 for a wrong guess)."""
    return hmac.compare_digest(
        held.encode("utf-8", "surrogateescape"), offered.encode("utf-8", "surrogateescape")
    )


def _find(held: "Mapping[str, object]", offered: str) -> "str | None":
    """The held key equal to offered, compared in constant time."""
    return next((key for key in held if same_secret(key, offered)), None)


class Sessions:
    """Login tickets and sessions of one listener (in memory: a restart logs everyone out)."""

    def __init__(self) -> None:
        self.tickets: dict[str, float] = {}  # ticket -> expiry (monotonic)
        self.sessions: dict[str, Session] = {}  # cookie value -> session

    def login_ticket(self) -> str:
        now = time.monotonic()
        self.tickets = {t: at for t, at in self.tickets.items() if at > now}
        _bounded(self.tickets)
        ticket = secrets.token_urlsafe(32)
        self.tickets[ticket] = now + LOGIN_LIFE
        return ticket

    def exchange(self, ticket: str) -> "tuple[str, Session] | None":
        """(cookie value, session) for a live ticket, which is spent either way."""
        match = _find(self.tickets, ticket)
        if match is None or self.tickets.pop(match) <= time.monotonic():
            return None
        now = time.monotonic()
        self.sessions = {c: s for c, s in self.sessions.items() if s.expires > now}
        _bounded(self.sessions)
        cookie = secrets.token_urlsafe(32)
        session = Session(secrets.token_urlsafe(32), now + SESSION_LIFE)
        self.sessions[cookie] = session
        return cookie, session

    def of(self, headers: "list[tuple[bytes, bytes]]") -> "Session | None":
        """The live session named by the request's cookie, if any."""
        for name, value in headers:
            if name != b"cookie":
                continue
            for part in value.decode("latin-1").split(";"):
                key, _, given = part.strip().partition("=")
                if key != COOKIE:
                    continue
                match = _find(self.sessions, given)
                if match is not None and self.sessions[match].expires > time.monotonic():
                    return self.sessions[match]
        return None

    @staticmethod
    def csrf_ok(headers: "list[tuple[bytes, bytes]]", session: Session) -> bool:
        given = [v.decode("latin-1") for k, v in headers if k == CSRF_HEADER]
        return len(given) == 1 and same_secret(session.csrf, given[0])
