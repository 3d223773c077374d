"""Docker: processes in containers of the Docker engine (`context: docker`)."""

from __future__ import annotations

from agentcli.errors import AgentError, ExitCode
from procler.contexts.container_kind import ContainerKind
from procler.errors import ContainerNotFound, ImageNotFound


class DockerUnavailable(AgentError):
    code = "DOCKER_UNAVAILABLE"
    exit_code = ExitCode.INTERNAL
    default_suggestion = "start the Docker engine (dockerd) or set DOCKER_HOST, then retry"


DOCKER = ContainerKind(
    name="docker",
    about="in a Docker container (`docker:`)",
    implementation="procler.contexts.container:ContainerContext",
    status_field="docker",
    status_about="its container: kind, container_id, container, image, exec_id, state (docker)",
    errors=(ImageNotFound, ContainerNotFound, DockerUnavailable),
    cli="docker",
    host_env=("DOCKER_HOST",),
    sockets=("unix:///var/run/docker.sock",),
    sdk_env=True,
    unavailable=DockerUnavailable,
    start_hint="start dockerd (or Docker Desktop), or point DOCKER_HOST at a running engine; "
    "`docker info` must answer",
)
