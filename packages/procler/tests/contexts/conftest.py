"""The docker-context tests run against a real Docker engine (procler_testkit.docker_fixtures:
they skip without one, and fail instead with PROCLER_REQUIRE_DOCKER set, as in CI)."""

from procler_testkit.docker_fixtures import container, docker_client, image

__all__ = ["container", "docker_client", "image"]
