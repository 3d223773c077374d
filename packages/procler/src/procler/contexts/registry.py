"""Every execution context, one row each: its name (the value of `context:`) and where its
declaration is, loaded when first asked (as uvicorn's HTTP_PROTOCOLS table). Nothing else in
Procler names a context: it asks the context's `ContextKind`."""

from __future__ import annotations

from procler.contexts.kind import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agentcli.errors import AgentError
    from procler.contexts.kind import ContextKind

CONTEXTS: dict[str, str] = {
    "local": "procler.contexts.kind:LOCAL",
    "docker": "procler.contexts.docker:DOCKER",
    "podman": "procler.contexts.podman:PODMAN",
}
# The context of a `container:` given without one (Procler 0.3 knew only Docker).
CONTAINER_DEFAULT = "docker"
_LOADED: dict[str, ContextKind] = {}


def kind(name: str) -> ContextKind:
    """The declaration of context `name` (a name the config's schema already checked)."""
    if name not in _LOADED:
        found: ContextKind = load(CONTEXTS[name])  # type: ignore[assignment]
        _LOADED[name] = found
    return _LOADED[name]


def kinds() -> tuple[ContextKind, ...]:
    return tuple(kind(name) for name in CONTEXTS)


def in_containers() -> tuple[str, ...]:
    """The contexts whose processes run in containers (they have a `container` to exec in)."""
    from procler.contexts.container_kind import ContainerKind

    return tuple(k.name for k in kinds() if isinstance(k, ContainerKind))


def unavailable() -> tuple[type[AgentError], ...]:
    """What a command that reaches every context's runs can answer when one is unreachable."""
    return tuple(k.unavailable for k in kinds() if k.unavailable is not None)


def errors() -> tuple[type[AgentError], ...]:
    """What starting a process can answer in some context, each error once."""
    return tuple(dict.fromkeys(e for k in kinds() for e in k.errors))


def status_fields() -> dict[str, None]:
    """The contexts' own fields of a status row, all empty (a run fills its own)."""
    return dict.fromkeys(k.status_field for k in kinds())


def exec_context(context: str | None, container: str | None) -> str:
    """Where a one-off command runs (exec, a snippet, a recipe's exec step): with a container
    named, the container context given, else CONTAINER_DEFAULT; without, the one given."""
    if container:
        return context if context in in_containers() else CONTAINER_DEFAULT
    return context or "local"
