"""The dashboard's own routes on the TCP listener: the login exchange and the static pages.

GET /login?ticket=T spends a login ticket and sets the session cookie (then redirects to
the dashboard); every dashboard page without a live session redirects to /login, which
says how to get in. The pages are files shipped in the package (procler/dashboard/static),
read once; index.html gets the session's CSRF token and which statuses each action can
change (procler.states), so a button is enabled only when its action can do something.
The icon is served to anyone (the login page shows it too).
"""

import html
import json
from importlib import resources
from urllib.parse import parse_qsl

from procler import recipe_states, states
from procler.dashboard.sessions import COOKIE, SESSION_LIFE, Session, Sessions

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    Send = Callable[[dict[str, Any]], Awaitable[None]]

LOGIN_ROUTE = "/login"
HOME = "/dashboard/"
STATIC = "/dashboard/static/"
ICON = "/favicon.ico"  # an SVG, where browsers look for an icon first
TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}
# The statuses from which each of the dashboard's actions can change something: a
# process's, then a recipe run's (only an interrupted run resumes, a running one cancels).
ACTIONS = {
    "start": sorted(states.CAN_START),
    "stop": sorted(states.CAN_STOP),
    "restart": sorted(states.CAN_RESTART),
    "resume": [recipe_states.RUN_INTERRUPTED],
    "cancel": [recipe_states.RUN_RUNNING],
}
HEADERS = [
    (b"content-security-policy", b"default-src 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # the login URL carries a ticket
    (b"cache-control", b"no-store"),
]
LOGIN_PAGE = (
    '<!doctype html><title>procler: log in</title><link rel="icon" href="/favicon.ico">'
    "<h1>procler dashboard</h1>"
    "<p>{message} Run <code>procler dashboard</code> and open the URL it answers: it "
    "works once, within a minute.</p>"
)


def is_page(path: str) -> bool:
    """Whether the path is one of the dashboard's (not the API's)."""
    return path in ("/", "/dashboard", LOGIN_ROUTE, ICON) or path.startswith(HOME)


def _static(name: str) -> bytes:
    return resources.files("procler.dashboard").joinpath("static", name).read_bytes()


async def _answer(
    send: "Send", status: int, body: bytes, kind: str, extra: "list[tuple[bytes, bytes]]"
) -> None:
    headers = [
        (b"content-type", f"{kind}; charset=utf-8".encode()),
        (b"content-length", b"%d" % len(body)),
        *HEADERS,
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _redirect(send: "Send", to: str, extra: "list[tuple[bytes, bytes]]") -> None:
    await _answer(send, 303, b"", "text/plain", [(b"location", to.encode()), *extra])


async def _login_page(send: "Send", message: str) -> None:
    body = LOGIN_PAGE.format(message=html.escape(message)).encode()
    await _answer(send, 401, body, "text/html", [])


async def serve(scope: "dict[str, Any]", send: "Send", sessions: Sessions) -> None:
    """Answer a dashboard path (is_page) for an allowed Host and Origin."""
    path = scope["path"]
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, 405, b"", "text/plain", [(b"allow", b"GET")])
        return
    if path == LOGIN_ROUTE:
        await _login(scope, send, sessions)
        return
    if path == ICON:
        await _answer(send, 200, _static("favicon.svg"), TYPES[".svg"], [])
        return
    session = sessions.of(scope["headers"])
    if session is None:
        await _redirect(send, LOGIN_ROUTE, [])
        return
    if path in ("/", "/dashboard"):
        await _redirect(send, HOME, [])
    elif path == HOME:
        await _index(send, session)
    else:
        name = path[len(STATIC) :] if path.startswith(STATIC) else ""
        suffix = name[name.rfind(".") :] if "." in name else ""
        if "/" in name or suffix not in TYPES or name == "index.html":
            await _answer(send, 404, b"not found", "text/plain", [])
            return
        try:
            body = _static(name)
        except FileNotFoundError:
            await _answer(send, 404, b"not found", "text/plain", [])
            return
        await _answer(send, 200, body, TYPES[suffix], [])


async def _login(scope: "dict[str, Any]", send: "Send", sessions: Sessions) -> None:
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    if "ticket" not in query:
        await _login_page(send, "You are not logged in.")
        return
    made = sessions.exchange(query["ticket"])
    if made is None:
        await _login_page(send, "This login URL was used already or has expired.")
        return
    cookie, _session = made
    value = f"{COOKIE}={cookie}; HttpOnly; SameSite=Strict; Path=/; Max-Age={int(SESSION_LIFE)}"
    await _redirect(send, HOME, [(b"set-cookie", value.encode())])


async def _index(send: "Send", session: Session) -> None:
    page = _static("index.html").decode("utf-8").replace("{{csrf}}", html.escape(session.csrf))
    page = page.replace("{{actions}}", html.escape(json.dumps(ACTIONS)))
    await _answer(send, 200, page.encode(), "text/html", [])
