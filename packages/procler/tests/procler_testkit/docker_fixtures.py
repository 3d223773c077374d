"""Fixtures of the tests against a real Docker engine (contexts/, integration/docker/),
imported by their conftests: the engine's client, a test image built locally, and
containers started by hand.

Images cannot be pulled here, so the image is a tar of busybox-static with its applet
links, imported with `docker import`. Without an engine the tests skip with the reason;
with PROCLER_REQUIRE_DOCKER set (CI) they fail instead, so CI cannot pass without them.
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest

IMAGE = "procler-test-busybox:latest"
TEST_LABEL = "procler.test"  # on every container a test creates by hand
# Its value is this pytest process's pid: a session's clean-up removes its own containers,
# never those the tests of another xdist worker (or another run) are still using.
SESSION = str(os.getpid())
APPLETS = ("sh", "sleep", "echo", "httpd", "nc", "cat", "kill", "ps", "grep", "ls", "true", "env")


def _busybox_rootfs() -> bytes:
    """A tar of a minimal root filesystem: busybox-static and links for its applets."""
    busybox = shutil.which("busybox") or "/bin/busybox"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for folder in ("bin", "tmp", "proc", "sys", "dev", "etc", "www"):
            info = tarfile.TarInfo(folder)
            info.type, info.mode = tarfile.DIRTYPE, 0o1777 if folder == "tmp" else 0o755
            tar.addfile(info)
        tar.add(busybox, arcname="bin/busybox")
        for applet in APPLETS:
            link = tarfile.TarInfo(f"bin/{applet}")
            link.type, link.linkname = tarfile.SYMTYPE, "busybox"
            tar.addfile(link)
    return buffer.getvalue()


@pytest.fixture(scope="session")
def docker_client() -> Iterator[Any]:
    import docker

    from procler.contexts.docker_engine import engine_url, socket_unanswered

    try:
        if socket_unanswered(engine_url()):
            raise docker.errors.DockerException(f"nothing answers at {engine_url()}")
        client = docker.from_env(timeout=10)
        client.ping()
    except docker.errors.DockerException as exc:
        reason = f"no Docker engine reachable ({exc}); run `bash .ci/docker-up.sh` as root"
        if os.environ.get("PROCLER_REQUIRE_DOCKER"):
            pytest.fail(f"PROCLER_REQUIRE_DOCKER is set but {reason}")
        pytest.skip(reason)
    yield client
    mine = {"label": f"{TEST_LABEL}={SESSION}"}
    for container in client.containers.list(all=True, filters=mine):
        container.remove(force=True)
    client.close()


@pytest.fixture(scope="session")
def image(docker_client: Any) -> str:
    """The test image, imported once per session (reused when it is already there)."""
    import docker

    try:
        docker_client.images.get(IMAGE)
    except docker.errors.ImageNotFound:
        if not (shutil.which("busybox") or os.path.exists("/bin/busybox")):
            pytest.fail(
                "busybox-static is needed to build the test image: apt-get install busybox-static"
            )
        repository, tag = IMAGE.split(":")
        docker_client.api.import_image_from_data(
            _busybox_rootfs(), repository=repository, tag=tag, changes=['CMD ["/bin/sh"]']
        )
    return IMAGE


@pytest.fixture
def container(docker_client: Any, image: str) -> Callable[..., Any]:
    """Start a labelled long-running container by hand (the 'existing container' cases)."""

    def run(name: str, command: list[str] | None = None, start: bool = True) -> Any:
        kwargs: dict[str, Any] = {
            "name": name,
            "network_mode": "host",
            "labels": {TEST_LABEL: SESSION},
            "command": command or ["sleep", "600"],
            "init": False,
        }
        if start:
            return docker_client.containers.run(image, detach=True, **kwargs)
        return docker_client.containers.create(image, **kwargs)

    return run
