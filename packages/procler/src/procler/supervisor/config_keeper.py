"""The supervisor's config: reloaded when one of its files changes (every file merged,
the project's config.local.yaml included from the moment it exists), the last valid one
kept while they are broken (see procler.config.last_valid)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from procler.config.findings import Findings
from procler.config.last_valid import remember, still_invalid, warning
from procler.config.load import check_config, read_texts
from procler.config.model import ProjectConfig
from procler.config.scaling import scale_path
from procler.errors import ConfigInvalid
from procler.project import config_files, local_config, named_files

log = logging.getLogger("procler.supervisor")


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """When, how long and which file: an edit within the clock's tick still shows."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size, found.st_ino


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith((prefix + ".", prefix + "["))


class ConfigKeeper:
    """Loads the config when the YAML or the runtime definitions changed; `on_valid` gets
    every newly loaded valid config. While the file is invalid, `broken` holds what it
    gave (a partial config, or None when it does not parse, and the findings)."""

    def __init__(
        self,
        root: str,
        config_path: str,
        definitions: Path,
        on_valid: Callable[[ProjectConfig], None],
    ) -> None:
        self.root = root
        self.config_path = config_path  # the files it names (project.find_config)
        # what a change is looked for in: those files and the project's local override
        self.watched = [
            Path(f) for f in dict.fromkeys([*named_files(config_path), local_config(root)])
        ]
        self.definitions = definitions
        self.scale_file = Path(scale_path(root))  # the `procler scale` counts
        self.on_valid = on_valid
        self.valid: ProjectConfig | None = None
        self.broken: tuple[ProjectConfig | None, Findings] | None = None
        self._stamps: tuple[tuple[int, int, int] | None, ...] = ()
        # definitions.json as last loaded: written again if the state directory is removed
        self.loaded_definitions: bytes | None = None

    def current(self) -> ProjectConfig:
        """The config running now: the file's, or the last valid one while it is broken
        (CONFIG_INVALID when there never was a valid one)."""
        stamps = tuple(_stamp(p) for p in (*self.watched, self.definitions, self.scale_file))
        if self.valid is None or stamps != self._stamps:
            cfg, findings, texts = self._check()
            self._stamps = stamps
            if findings or cfg is None or texts is None:
                self.broken = (cfg, findings)
                if self.valid is None:
                    raise still_invalid(findings)
                log.warning("config invalid, keeping the last valid one: %s", findings.items[0])
            else:
                self.broken, self.valid = None, cfg
                with contextlib.suppress(OSError):
                    self.loaded_definitions = self.definitions.read_bytes() if stamps[-2] else None
                remember(self.root, texts)
                self.on_valid(cfg)
        return self.valid

    def read_again(self) -> ProjectConfig:
        """The config read now, whatever the files' stamps say (after `procler scale`)."""
        self._stamps = ()
        return self.current()

    def peek(self) -> ProjectConfig:
        """The file's config as it is now, taken up by nobody (`reload --dry-run`);
        CONFIG_INVALID with every error when it is broken."""
        cfg, findings, texts = self._check()
        if findings or cfg is None or texts is None:
            raise still_invalid(findings)
        return cfg

    def _check(self) -> tuple[ProjectConfig | None, Findings, dict[str, str] | None]:
        """The files read now and checked: the config, its findings and the texts read."""
        files = config_files(self.config_path)
        unread = Findings(files[0], files)
        texts = read_texts(self.config_path, unread)
        if texts is None:
            return None, unread, None
        cfg, findings = check_config(self.config_path, texts=texts)
        return cfg, findings, texts

    def warning(self, refresh: bool = True) -> dict[str, Any] | None:
        """The file's errors while the last valid config runs in its place, else None;
        with refresh, the file is read again (and taken up) if it changed."""
        with contextlib.suppress(ConfigInvalid):
            if refresh:
                self.current()
        return None if self.broken is None else warning(self.broken[1])

    def refuse_changed(self, names: list[str]) -> None:
        """While the file is invalid, a process whose definition changed there (or cannot
        be read) would start from a stale one: CONFIG_INVALID instead."""
        if self.broken is None or self.valid is None:
            return
        partial, findings = self.broken
        running = self.valid.processes
        changed = [
            n
            for n in names
            if partial is None
            or partial.processes.get(n) != running.get(n)
            or any(_under(f.path, f"processes.{n}") for f in findings.items)
        ]
        if changed:
            raise still_invalid(
                findings,
                f"not started: the invalid config changed the definition of "
                f"{', '.join(changed)} (the supervisor runs the last valid config)",
            )

    def refuse_reload(self) -> None:
        """A reload (or a supervisor restart) would drop the last valid config for the
        broken file: CONFIG_INVALID instead."""
        self.warning()  # reads the file again if it changed
        if self.broken is not None:
            raise still_invalid(self.broken[1])
