"""docs/architecture.md is a map, not a journal: it names every package folder of the code
(a folder of packages/*/src/ holding Python modules, written `PACKAGE/PATH/`) and stays short;
the design notes live in docs/design/."""

from __future__ import annotations

from pathlib import Path

from generated_docs import ROOT

MAP = ROOT / "docs" / "architecture.md"
MAP_MAX_LINES = 270


def package_folders(root: Path) -> list[str]:
    """Every folder under packages/*/src/ that holds a .py file, as `PACKAGE/PATH/`."""
    folders = {
        str(py.parent.relative_to(src)) + "/"
        for src in root.glob("packages/*/src")
        for py in src.rglob("*.py")
        if "__pycache__" not in py.parts
    }
    return sorted(folders)


def unnamed(text: str, folders: list[str]) -> list[str]:
    return [folder for folder in folders if f"`{folder}`" not in text]


def test_every_package_folder_is_named_in_the_map() -> None:
    folders = package_folders(ROOT)
    assert "procler/supervisor/api/" in folders and "officecli/readers/pdf/" in folders
    assert unnamed(MAP.read_text("utf-8"), folders) == []


def test_the_map_stays_short() -> None:
    assert len(MAP.read_text("utf-8").splitlines()) <= MAP_MAX_LINES


def test_a_new_folder_is_seen(tmp_path: Path) -> None:
    (tmp_path / "packages" / "x" / "src" / "x" / "new" / "__pycache__").mkdir(parents=True)
    (tmp_path / "packages" / "x" / "src" / "x" / "__init__.py").write_text("")
    (tmp_path / "packages" / "x" / "src" / "x" / "new" / "mod.py").write_text("")
    (tmp_path / "packages" / "x" / "src" / "x" / "new" / "__pycache__" / "m.py").write_text("")
    folders = package_folders(tmp_path)
    assert folders == ["x/", "x/new/"]
    assert unnamed("the `x/` package", folders) == ["x/new/"]
