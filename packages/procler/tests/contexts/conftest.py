"""The container-context tests run against real engines, each test once per engine
(procler_testkit.engine_fixtures: they skip without one, and fail instead with
PROCLER_REQUIRE_DOCKER / PROCLER_REQUIRE_PODMAN set, as in CI)."""

from procler_testkit.engine_fixtures import container, engine, engine_client, image

__all__ = ["container", "engine", "engine_client", "image"]
