"""README follows the declarations: its office-replace section names every rules-file column
and value. (The skill's command lines are parsed by office_tools/test_skills.py.)"""

from __future__ import annotations

from pathlib import Path

from officecli.office_replace.columns import RULES_FILE

ROOT = Path(__file__).resolve().parents[4]


def test_readme_names_every_column_and_value() -> None:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## office-replace") : text.index("## Development")]
    for field in RULES_FILE.fields:
        assert f"`{field.name}`" in section
        for value, _ in field.values:
            assert f"`{value}`" in section, value
