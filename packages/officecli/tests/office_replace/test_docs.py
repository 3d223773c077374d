"""The guide follows the declarations: its office-replace page names every rules-file column
and value. (The skill's command lines are parsed by office_tools/test_skills.py.)"""

from __future__ import annotations

from pathlib import Path

from officecli.office_replace.columns import RULES_FILE

ROOT = Path(__file__).resolve().parents[4]


def test_the_guide_names_every_column_and_value() -> None:
    section = (ROOT / "docs" / "office" / "office-replace.md").read_text()
    for field in RULES_FILE.fields:
        assert f"`{field.name}`" in section
        for value, _ in field.values:
            assert f"`{value}`" in section, value
