"""The TUI's key bindings: one table of actions with default keys, remappable from a TOML
file (`[keys]` action = "key", e.g. `stop = "ctrl+x"`)."""

import os
import tomllib
from dataclasses import dataclass

from agentcli.files import read_regular
from procler.errors import ConfigInvalid

TYPE_CHECKING = False
if TYPE_CHECKING:
    from textual.binding import Binding


@dataclass(frozen=True)
class Action:
    """One bindable action: its id (the method `action_<id>`), default key, help text;
    a priority key works in dialogs and input lines too."""

    id: str
    key: str
    description: str
    show: bool = True
    priority: bool = False


ACTIONS = (
    Action("start", "s", "start"),
    Action("stop", "x", "stop (asks first)"),
    Action("restart", "r", "restart"),
    Action("scale", "S", "scale: how many instances (asks)", show=False),
    Action("send", "i", "input: send a line to its stdin (stdin: true)", show=False),
    Action("select", "space", "select / unselect for the log pane", show=False),
    Action("filter", "slash", "filter processes"),
    Action("toggle_stopped", "h", "hide / show stopped"),
    Action("namespace", "ctrl+n", "show one namespace / every one", show=False),
    Action("search", "ctrl+f", "search the logs"),
    Action("next_match", "n", "next match", show=False),
    Action("previous_match", "N", "previous match", show=False),
    Action("toggle_follow", "f", "follow logs on / off"),
    Action("toggle_wrap", "w", "wrap log lines on / off"),
    Action("toggle_previous_run", "p", "logs of the previous run / the current one"),
    Action("older_logs", "o", "page back: older log lines"),
    Action("newer_logs", "O", "page forward: newer log lines"),
    Action("details", "d", "why: the details view"),
    Action("graph", "g", "dependency graph: start levels"),
    Action("reload", "R", "reload the config (shows the diff first)"),
    Action("recipe", "e", "run a recipe"),
    Action("snippet", "c", "run a snippet (asks for its arguments)"),
    Action("command_palette", "ctrl+p", "palette", show=False, priority=True),
    Action("help", "question_mark", "key bindings"),
    Action("quit", "q", "quit (processes keep running)"),
)


def default_keys_file() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "procler", "tui-keys.toml")


MAX_KEYS_BYTES = 1 << 20  # a few dozen key bindings


def load_keymap(path: "str | None") -> "dict[str, str]":
    """Action id -> key from the file (the default file may be absent; a named one may not)."""
    target = path or default_keys_file()
    try:  # a pipe or a device is refused (NOT_REGULAR_FILE), never read
        table = tomllib.loads(read_regular(target, MAX_KEYS_BYTES, target).decode("utf-8"))
    except FileNotFoundError:
        if path is None:
            return {}
        raise ConfigInvalid(
            f"key bindings file not found: {path}", suggestion="give an existing TOML file"
        ) from None
    except UnicodeDecodeError as exc:  # the bytes themselves are never quoted
        raise ConfigInvalid(
            f"{target}: not UTF-8 text (at byte {exc.start})",
            suggestion='write e.g. [keys] stop = "ctrl+x"',
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigInvalid(
            f"{target}: not valid TOML: {exc}", suggestion='write e.g. [keys] stop = "ctrl+x"'
        ) from None
    keys = table.get("keys", {})
    known = {a.id for a in ACTIONS}
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise ConfigInvalid(
            f"{target}: [keys] must map actions to key names",
            suggestion='write e.g. [keys] stop = "ctrl+x"',
        )
    unknown = sorted(set(keys) - known)
    if unknown:
        raise ConfigInvalid(
            f"{target}: unknown action(s): {', '.join(unknown)}",
            suggestion="actions: " + ", ".join(a.id for a in ACTIONS),
        )
    return dict(keys)


def bindings() -> "list[Binding]":
    from textual.binding import Binding

    return [
        Binding(a.key, a.id, a.description, show=a.show, id=a.id, priority=a.priority)
        for a in ACTIONS
    ]
