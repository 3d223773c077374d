"""The kind of every context whose processes run in containers of an engine that speaks the
Docker API (Docker itself, Podman's compatible service): the same settings, status fields and
export, the engine's own names and errors declared by each (`docker.py`, `podman.py`)."""

from __future__ import annotations

import os

from procler.contexts.kind import ContextKind, load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from procler.config.specs import Struct
    from procler.contexts.base import ExecutionContext

# The engines' image reference grammar (name[:tag][@digest]), so a name the engine would
# refuse is a config or usage error before any definition is written.
_DOMAIN_PART = r"(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])"
_PATH_PART = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
IMAGE_PATTERN = (
    rf"(?:{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*(?::[0-9]+)?/)?{_PATH_PART}(?:/{_PATH_PART})*"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?"
    r"(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?"
)
MAX_IMAGE = 512
IMAGE_HINT = (
    "write an image reference: lowercase name[:tag][@digest], e.g. postgres:16 "
    "or registry.local:5000/team/api:1.2"
)

_SETTINGS: dict[str, Struct] = {}


def container_settings(cli: str) -> Struct:
    """The keys of a container context's mapping (`docker:`, `podman:`); built when the
    config is read (the schema's classes are not loaded to answer `capabilities`)."""
    from procler.config.specs import ListOf, Matching, Str, Struct

    if cli in _SETTINGS:
        return _SETTINGS[cli]
    _SETTINGS[cli] = Struct(
        {
            "image": Matching(
                IMAGE_PATTERN, MAX_IMAGE, "an image reference", IMAGE_HINT, sample="postgres:16"
            ),
            "container": Str(sample="my-db"),
            "volumes": ListOf(Str(sample="./data:/var/lib/data")),
            "network_mode": Str(sample="host"),
        },
        exclusive=("image", "container"),
        need_one=True,
        about={
            "image": "run a container of this local image (nothing is pulled); Procler owns it",
            "container": "an existing container: started and stopped as the process, or the "
            f"container `command` is run in ({cli} exec)",
            "volumes": "HOST:CONTAINER mounts of an `image` container; relative host paths "
            "from the process's cwd",
            "network_mode": (f"the {cli} network mode of an `image` container", "host"),
        },
    )
    return _SETTINGS[cli]


class ContainerKind(ContextKind):
    """A container engine reached through the Docker API."""

    __slots__ = (
        "cli",
        "exit_events",
        "exit_filters",
        "host_env",
        "sdk_env",
        "sockets",
        "start_hint",
    )

    def __init__(
        self,
        *,
        cli: str,
        host_env: tuple[str, ...],
        sockets: tuple[str, ...],
        start_hint: str,
        sdk_env: bool = False,
        exit_events: tuple[str, str] = ("die", "exec_die"),
        exit_filters: tuple[str, str] = ("die", "exec_die"),
        **common: Any,
    ) -> None:
        super().__init__(**common)
        self.cli = cli  # the engine's command, as suggestions and exported units spell it
        # Where its API is: the first of these variables that is set, else the first of
        # `sockets` whose file exists ($VARS expanded; one with a variable unset is
        # skipped), else the last.
        self.host_env = host_env
        self.sockets = sockets
        self.start_hint = start_hint  # how to start the engine, when it does not answer
        # The SDK reads the engine's whole environment itself (DOCKER_HOST,
        # DOCKER_TLS_VERIFY, DOCKER_CERT_PATH): used when no other address is given.
        self.sdk_env = sdk_env
        # The engine's events of a container's end and of an exec's end: their names as it
        # reports them, and as its events filter takes them (Podman's differ: die / died).
        self.exit_events = exit_events
        self.exit_filters = exit_filters

    def engine_url(self) -> str:
        for name in self.host_env:
            if os.environ.get(name):
                return os.environ[name]
        usable = [path for path in (os.path.expandvars(s) for s in self.sockets) if "$" not in path]
        for url in usable:
            if os.path.exists(url.removeprefix("unix://")):
                return url
        return usable[-1] if usable else self.sockets[-1]

    def settings(self) -> Struct:
        return container_settings(self.cli)

    def create(self, root: str) -> ExecutionContext:
        made: ExecutionContext = load(self.implementation)(root, self)  # type: ignore[operator]
        return made
