"""schemathesis against a live read-only `procler serve`: for every operation of the OpenAPI
document the listener serves, generated requests (a few each) get no 5xx and no answer the
document does not describe (status, content type, body schema). Read-only, so the
commands that change something answer 403 and nothing generated runs them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from procler_testkit.api_client import Listener, serve
from procler_testkit.harness import PY, Project
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from procler.declarations import APP
from procler.wire import COMMANDS_PREFIX

CONFIG = f"""
version: 1
processes:
  api:
    command: {PY} -c "import time; print('up', flush=True); time.sleep(600)"
groups:
  backend: {{processes: [api]}}
"""
EXAMPLES = 6  # per operation: enough to reach its statuses, few enough for `make test`
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# `wait` blocks for as long as its generated --timeout says: not a fuzzing target.
SKIPPED = {"command_wait"}


@pytest.fixture(scope="module")
def listener(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Listener]:
    made = Project(tmp_path_factory.mktemp("fuzz") / "proj", CONFIG)
    try:
        made.ok("start", "api")
        yield serve(made, "--read-only")
    finally:
        made.close()


def test_generated_requests_get_answers_the_document_describes(listener: Listener) -> None:
    status, document = listener.get("/v1/openapi.json")
    assert status == 200
    schema = schemathesis.openapi.from_dict(document)
    base_url = f"http://127.0.0.1:{listener.port}"
    headers = {"Authorization": f"Bearer {listener.token}"}
    operations = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result  # each operation of the document is valid
        operations.append(result.ok())
    tried = []
    for operation in operations:
        if operation.definition.raw.get("operationId") in SKIPPED:
            continue
        path = operation.path
        name = path[len(COMMANDS_PREFIX) :].replace("/", " ")
        refused = path.startswith(COMMANDS_PREFIX) and not APP.command(name).read_only

        @given(case=operation.as_strategy())
        @settings(
            max_examples=1 if refused else EXAMPLES,  # a read-only listener's 403, at once
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: schemathesis.Case[Any]) -> None:  # as_strategy's type
            case.call_and_validate(base_url=base_url, headers=headers, checks=CHECKS)

        check()
        tried.append(operation.label)
    assert len(tried) == len(operations) - len(SKIPPED)
