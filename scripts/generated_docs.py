"""Write the generated pages of docs/: docs/reference/TOOL.md (each tool's commands, options,
answer fields, error codes and exit codes, from its declarations) and docs/config.md (every
key of `.procler/config.yaml`, from the schema table); and `procler capabilities`' answer,
which procler.entry prints from a file so as not to load the declarations for it; and
design-diff's shipped presets as JSON (presets/NAME.json, read without the YAML reader).
`make docs` runs this; tests/docs/ fails when a committed page differs from what `pages()` gives.
"""

from __future__ import annotations

from pathlib import Path

from agentcli.commands import App
from agentcli.main import capabilities_answer
from agentcli.reference import render_reference
from officecli.design_diff.presets import PRESET_NAMES, builtin_json, builtin_path
from officecli.office_tools.commands import APP as OFFICE_TOOLS
from officecli.office_tools.skills import TOOLS as OFFICE_APPS
from procler.config.reference import json_schema, markdown
from procler.declarations import APP as PROCLER
from procler.entry import CAPABILITIES

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "docs/reference"
CONFIG = "docs/config.md"


def tools() -> tuple[App, ...]:
    """Every tool the repository installs, each with its reference page."""
    return (PROCLER, *(app for app, _guide in OFFICE_APPS), OFFICE_TOOLS)


def pages() -> dict[str, str]:
    """Each generated page: its path from the repository root -> its text."""
    generated = {f"{REFERENCE}/{app.name}.md": render_reference(app) for app in tools()}
    answer = str(Path(CAPABILITIES).resolve().relative_to(ROOT))
    presets = {
        str(builtin_path(name).with_suffix(".json").relative_to(ROOT)): builtin_json(name)
        for name in PRESET_NAMES
    }
    return {
        **generated,
        CONFIG: markdown(json_schema()),
        answer: capabilities_answer(PROCLER),
        **presets,
    }


def main() -> None:
    folder = ROOT / REFERENCE
    written = pages()
    for stale in folder.glob("*.md") if folder.is_dir() else ():
        if str(stale.relative_to(ROOT)) not in written:
            stale.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in written.items():
        (ROOT / path).write_text(text, "utf-8")
    print(
        f"wrote {CONFIG}, {REFERENCE}/ ({', '.join(app.name for app in tools())}) "
        f"{Path(CAPABILITIES).resolve().relative_to(ROOT)} and design-diff's presets as JSON"
    )


if __name__ == "__main__":
    main()
