"""The TUI's actions in Textual's command palette (ctrl+p): every action of the key table,
found by its description, run as its key runs it (`App.run_action` with the action's id)."""

from functools import partial
from typing import Protocol, cast

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import ModalScreen

from procler.tui import key_bindings as keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine
    from typing import Any


class KeyedApp(Protocol):
    def key_shown(self, action: str) -> str: ...


class ActionCommands(Provider):
    """One palette command per action, its key (as remapped) in the help line."""

    def _commands(self) -> "list[tuple[str, Callable[[], Coroutine[Any, Any, bool]], str]]":
        # Over a dialog (a question, a view) the actions would act behind it: none offered.
        if isinstance(self.screen, ModalScreen):
            return []
        key_shown = cast("KeyedApp", self.app).key_shown
        return [
            (a.description, partial(self.app.run_action, a.id), f"key {key_shown(a.id)}")
            for a in keys.ACTIONS
            if a.id != "command_palette"  # the palette is open already
        ]

    async def discover(self) -> Hits:
        for description, run, help_text in self._commands():
            yield DiscoveryHit(Text(description), run, text=description, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for description, run, help_text in self._commands():
            score = matcher.match(description)
            if score > 0:
                yield Hit(score, matcher.highlight(description), run, description, help_text)
