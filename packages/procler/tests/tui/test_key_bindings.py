"""The TUI's key table: every action has its method, and the remapping file is read strictly."""

from pathlib import Path

import pytest

from procler.errors import ConfigInvalid
from procler.tui import key_bindings as keys
from procler.tui.app import ProclerApp


def test_every_action_of_the_table_is_a_method_of_the_app() -> None:
    assert [a.id for a in keys.ACTIONS if not hasattr(ProclerApp, f"action_{a.id}")] == []
    assert [b.id for b in keys.bindings()] == [a.id for a in keys.ACTIONS]


def test_a_keys_file_remaps_actions(tmp_path: Path) -> None:
    given = tmp_path / "keys.toml"
    given.write_text('[keys]\nstop = "ctrl+x"\n')
    assert keys.load_keymap(str(given)) == {"stop": "ctrl+x"}


def test_the_default_keys_file_may_be_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert keys.load_keymap(None) == {}
    (tmp_path / "procler").mkdir()
    (tmp_path / "procler" / "tui-keys.toml").write_text('[keys]\nhelp = "f1"\n')
    assert keys.load_keymap(None) == {"help": "f1"}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (None, "key bindings file not found: {path}"),
        ("[keys\n", "{path}: not valid TOML: "),
        ("[keys]\nstop = 1\n", "{path}: [keys] must map actions to key names"),
        ('[keys]\nstart = "s"\nlaunch = "l"\n', "{path}: unknown action(s): launch"),
    ],
)
def test_a_bad_keys_file_is_a_config_error(tmp_path: Path, text: str | None, error: str) -> None:
    path = tmp_path / "keys.toml"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ConfigInvalid) as raised:
        keys.load_keymap(str(path))
    assert str(raised.value).startswith(error.format(path=path))
