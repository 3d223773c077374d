"""Podman: processes in containers of Podman (`context: podman`), through its Docker-compatible
API service (`podman system service`, or the podman.socket unit)."""

from __future__ import annotations

from agentcli.errors import AgentError, ExitCode
from procler.contexts.container_kind import ContainerKind
from procler.errors import ContainerNotFound, ImageNotFound


class PodmanUnavailable(AgentError):
    code = "PODMAN_UNAVAILABLE"
    exit_code = ExitCode.INTERNAL
    default_suggestion = (
        "start Podman's API service (systemctl --user start podman.socket, or podman system "
        "service --time=0) or set CONTAINER_HOST, then retry"
    )


PODMAN = ContainerKind(
    name="podman",
    about="in a Podman container (`podman:`)",
    implementation="procler.contexts.container:ContainerContext",
    status_field="podman",
    status_about="its container: kind, container_id, container, image, exec_id, state (podman)",
    errors=(ImageNotFound, ContainerNotFound, PodmanUnavailable),
    cli="podman",
    host_env=("CONTAINER_HOST",),
    # A user's own service first (rootless), then the system's (rootful).
    sockets=("unix://$XDG_RUNTIME_DIR/podman/podman.sock", "unix:///run/podman/podman.sock"),
    exit_events=("die", "exec_died"),
    exit_filters=("died", "exec_died"),
    unavailable=PodmanUnavailable,
    start_hint="start Podman's API service (systemctl --user start podman.socket, or "
    "podman system service --time=0), or point CONTAINER_HOST at it; `podman info` must answer",
)
