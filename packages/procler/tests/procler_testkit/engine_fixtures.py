"""Fixtures of the tests against real container engines (contexts/, integration/containers/),
imported by their conftests: each engine (Docker, and Podman through its Docker-compatible
service) with its client, a test image built locally, and containers started by hand.

Every test that takes `engine` runs once per engine. Images cannot be pulled here, so the
image is a tar of busybox-static with its applet links, imported into the engine. Without an
engine the tests skip with the reason; with PROCLER_REQUIRE_DOCKER / PROCLER_REQUIRE_PODMAN
set (CI) they fail instead, so CI cannot pass without them. Docker's engine is started outside
the tests (`.ci/docker-up.sh`, it needs root's daemon); Podman's service is started here, on a
socket in a temp folder, as the tests start PostgreSQL.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest

from procler.contexts import registry
from procler.contexts.container_engine import socket_unanswered
from procler.contexts.container_kind import ContainerKind

IMAGE = "procler-test-busybox:latest"
TEST_LABEL = "procler.test"  # on every container a test creates by hand
# Its value is this pytest process's pid: a session's clean-up removes its own containers,
# never those the tests of another xdist worker (or another run) are still using.
SESSION = str(os.getpid())
APPLETS = ("sh", "sleep", "echo", "httpd", "nc", "cat", "kill", "ps", "grep", "ls", "true", "env")
SERVICE_WAIT = 30.0  # seconds for Podman's service to answer on its socket


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


@dataclass(frozen=True)
class Engine:
    """One engine under test: its context's declaration and a docker SDK client of it."""

    kind: ContainerKind
    client: Any

    @property
    def name(self) -> str:  # the context's name: `context: NAME`, `NAME: {...}`, status[NAME]
        return self.kind.name


def _unreachable(name: str, reason: str) -> NoReturn:
    if os.environ.get(f"PROCLER_REQUIRE_{name.upper()}"):
        pytest.fail(f"PROCLER_REQUIRE_{name.upper()} is set but {reason}")
    pytest.skip(reason)


def _podman_service(folder: Path) -> subprocess.Popen[bytes] | None:
    """Podman's API service on a socket in folder, with the containers.conf these machines
    need (their rlimits refuse Podman's defaults); CONTAINER_HOST points every test and
    every CLI the tests run at it."""
    podman = shutil.which("podman")
    if podman is None:
        return None
    conf = folder / "containers.conf"
    conf.write_text("[containers]\ndefault_ulimits = []\n")
    url = f"unix://{folder / 'podman.sock'}"
    env = {**os.environ, "CONTAINERS_CONF": str(conf)}
    with open(folder / "service.log", "wb") as log:
        service = subprocess.Popen(
            [podman, "system", "service", "--time=0", url], env=env, stdout=log, stderr=log
        )
    deadline = time.monotonic() + SERVICE_WAIT
    while socket_unanswered(url) and service.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.environ["CONTAINERS_CONF"] = str(conf)
    os.environ["CONTAINER_HOST"] = url
    return service


@pytest.fixture(scope="session", params=registry.in_containers())
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    import docker

    kind = registry.kind(request.param)
    assert isinstance(kind, ContainerKind)
    service = None
    if kind.name == "podman" and not os.environ.get("CONTAINER_HOST"):
        service = _podman_service(tmp_path_factory.mktemp("podman"))
        if service is None:
            _unreachable(kind.name, "podman is not installed: apt-get install podman")
    url = kind.engine_url()
    try:
        if socket_unanswered(url):
            raise docker.errors.DockerException(f"nothing answers at {url}")
        client = docker.DockerClient(base_url=url, timeout=10)
        client.ping()
    except docker.errors.DockerException as exc:
        _unreachable(kind.name, f"no {kind.cli} engine reachable ({exc}); {kind.start_hint}")
    yield Engine(kind, client)
    mine = {"label": f"{TEST_LABEL}={SESSION}"}
    for container in client.containers.list(all=True, filters=mine):
        container.remove(force=True)
    client.close()
    if service is not None:
        service.terminate()
        service.wait(SERVICE_WAIT)
        for name in ("CONTAINER_HOST", "CONTAINERS_CONF"):
            os.environ.pop(name, None)


@pytest.fixture(scope="session")
def engine_client(engine: Engine) -> Any:
    return engine.client


@pytest.fixture(scope="session")
def image(engine_client: Any) -> str:
    """The test image, imported once per engine (reused when it is already there)."""
    import docker

    try:
        engine_client.images.get(IMAGE)
    except docker.errors.ImageNotFound:
        if not (shutil.which("busybox") or os.path.exists("/bin/busybox")):
            pytest.fail(
                "busybox-static is needed to build the test image: apt-get install busybox-static"
            )
        repository, tag = IMAGE.split(":")
        engine_client.api.import_image_from_data(
            _busybox_rootfs(), repository=repository, tag=tag, changes=['CMD ["/bin/sh"]']
        )
    return IMAGE


@pytest.fixture
def container(engine_client: Any, image: str) -> Callable[..., Any]:
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
            return engine_client.containers.run(image, detach=True, **kwargs)
        return engine_client.containers.create(image, **kwargs)

    return run
