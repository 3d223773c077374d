"""What the rest of Procler knows of an execution context without loading it: its name, its
config keys, its fields of a status row, its errors and how export carries it.

A context is a `ContextKind` declared in its own module and named in `registry.CONTEXTS`;
the code that starts processes (`implementation`) is imported only when a process runs there.
These are plain classes, importing nothing: the CLI's start-up path reads them (the errors
a command declares, the choices of --context).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from agentcli.errors import AgentError
    from procler.config.specs import Struct
    from procler.contexts.base import ExecutionContext


def load(reference: str) -> object:
    """The object a "package.module:NAME" reference names, its module imported."""
    module, _, attr = reference.partition(":")
    return getattr(__import__(module, fromlist=[attr]), attr)


class ContextKind:
    """One place a process can run."""

    __slots__ = (
        "about",
        "errors",
        "implementation",
        "name",
        "on_host",
        "status_about",
        "status_field",
        "unavailable",
    )

    def __init__(
        self,
        *,
        name: str,
        about: str,
        implementation: str,
        status_field: str,
        status_about: str,
        on_host: bool = False,
        errors: tuple[type[AgentError], ...] = (),
        unavailable: type[AgentError] | None = None,
    ) -> None:
        self.name = name  # the value of `context:`
        self.about = about  # where that is, completing "where it runs: ..." in the docs
        self.implementation = implementation  # "module:Class" of its ExecutionContext
        self.status_field = status_field  # the key of its own fields in a status row
        self.status_about = status_about  # what that field holds, for the answer's description
        # Its runs are process groups of this host, the supervisor's children (the sentinel
        # kills them by group; a shell may lead them; their /proc tells their state).
        self.on_host = on_host
        # What starting a process here can answer besides PORT_IN_USE and START_FAILED.
        self.errors = errors
        # What it answers when the place cannot be reached at all (an engine down).
        self.unavailable = unavailable

    def __repr__(self) -> str:
        return f"<context {self.name}>"

    def settings(self) -> Struct | None:
        """Its settings, under a key of its name in a process (`docker: {image: ...}`)."""
        return None

    def create(self, root: str) -> ExecutionContext:
        """A new context of this kind for the project at root (a local one needs none)."""
        del root
        made: ExecutionContext = load(self.implementation)()  # type: ignore[operator]
        return made


LOCAL = ContextKind(
    name="local",
    about="on this machine",
    implementation="procler.contexts.local:LocalContext",
    status_field="linux_state",
    status_about="the kernel's state of its main process (local)",
    on_host=True,
)
