"""Each office tool's capabilities describe exactly what its parser accepts."""

from __future__ import annotations

import pytest

from agentcli.commands import App
from agentcli.testing import assert_capabilities_match_parser, assert_help_as_json
from officecli.design_diff.commands import APP as DESIGN_DIFF
from officecli.doc2md.commands import APP as DOC2MD
from officecli.fieldcheck.commands import APP as FIELDCHECK
from officecli.office_replace.commands import APP as OFFICE_REPLACE
from officecli.office_tools.commands import APP as OFFICE_TOOLS


@pytest.mark.parametrize(
    "app",
    [DOC2MD, FIELDCHECK, DESIGN_DIFF, OFFICE_REPLACE, OFFICE_TOOLS],
    ids=["doc2md", "fieldcheck", "design-diff", "office-replace", "office-tools"],
)
def test_capabilities_match_parser(app: App) -> None:
    assert_capabilities_match_parser(app)


@pytest.mark.parametrize(
    "app",
    [DOC2MD, FIELDCHECK, DESIGN_DIFF, OFFICE_REPLACE],
    ids=["doc2md", "fieldcheck", "design-diff", "office-replace"],
)
def test_help_as_json_matches_the_plain_help(app: App) -> None:
    assert_help_as_json(app)
