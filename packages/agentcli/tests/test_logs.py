from __future__ import annotations

import logging
import stat
import sys
from pathlib import Path

import pytest

from agentcli.logs import describe_text, setup_logging
from agentcli.tempdir import secure_tempdir


def test_describe_text_hides_content() -> None:
    assert describe_text("secret salary table") == "<text 19 chars>"


def test_secure_tempdir_is_private_and_removed() -> None:
    with secure_tempdir() as path:
        assert stat.S_IMODE(path.stat().st_mode) == 0o700
        (path / "f").write_text("x")
        kept = path
    assert not kept.exists()


def test_secure_tempdir_removed_on_keyboard_interrupt() -> None:
    seen: list[Path] = []
    with pytest.raises(KeyboardInterrupt), secure_tempdir() as path:
        seen.append(path)
        raise KeyboardInterrupt
    assert not seen[0].exists()


def test_logging_goes_to_stderr_only(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging(1)
    logging.getLogger("x").info("hello")
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "INFO x: hello\n"
    setup_logging(-1)
    logging.getLogger("x").warning("quiet")
    assert capsys.readouterr().err == ""
    logging.getLogger().handlers.clear()


def test_no_color_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentcli import logs

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert logs.use_color() is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert logs.use_color() is False
