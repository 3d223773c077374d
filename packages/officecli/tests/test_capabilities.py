"""Each office tool's capabilities describe exactly what its parser accepts."""

from __future__ import annotations

import pytest

from agentcli.testing import assert_capabilities_match_parser
from officecli.doc2md.commands import APP as DOC2MD
from officecli.fieldcheck.commands import APP as FIELDCHECK


@pytest.mark.parametrize("app", [DOC2MD, FIELDCHECK], ids=["doc2md", "fieldcheck"])
def test_capabilities_match_parser(app: object) -> None:
    assert_capabilities_match_parser(app)  # type: ignore[arg-type]
