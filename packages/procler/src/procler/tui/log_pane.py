"""The log pane: one page of log lines from the store, search with highlight and
next/previous, follow and wrap toggles. Text is never read as markup; ANSI colours stay."""

from rich.text import Text
from textual.widgets import RichLog

from procler.tui.views import CURRENT_MATCH_STYLE, MATCH_STYLE, log_text, matches

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class LogPane(RichLog):
    """Shows the lines it is given; appends live ones when following."""

    def __init__(self, **kwargs: "Any") -> None:
        super().__init__(markup=False, highlight=False, wrap=False, auto_scroll=True, **kwargs)
        self.entries: list[dict[str, Any]] = []
        self.prefixed = False
        self.older = False  # the store holds lines before this page
        self.needle = ""
        self.found: list[tuple[int, int]] = []
        self.current = -1
        self._starts: list[int] = []  # the first rendered line of each entry

    def show(self, entries: "list[dict[str, Any]]", *, prefixed: bool, older: bool) -> None:
        """Replace the page (several processes are prefixed with their names)."""
        self.entries = list(entries)
        self.prefixed = prefixed
        self.older = older
        self._research()

    def append(self, entry: "dict[str, Any]") -> None:
        """A live line, unless the page already holds it (a renewed subscription replays
        the buffered events after its resume point, and the page may have them)."""
        if self.holds(entry):
            return
        self.entries.append(entry)
        self._write(len(self.entries) - 1, log_text(entry, self.prefixed))
        if self.needle:
            self.found = matches(self._texts(), self.needle)

    def holds(self, entry: "dict[str, Any]") -> bool:
        """Whether the page already has this line or a later one of the same process.
        Lines are told apart by time and text: of two equal lines captured together, a
        replayed second one is taken for the first."""
        for held in reversed(self.entries):
            if held["name"] != entry["name"]:
                continue
            if held["ts"] != entry["ts"]:
                return bool(held["ts"] > entry["ts"])
            if held["text"] == entry["text"]:
                return True
        return False

    def search(self, needle: str) -> int:
        """Highlight every occurrence and go to the first; the number found."""
        self.needle = needle
        self._research()
        if self.found:
            self.jump(0)
        return len(self.found)

    def jump(self, step: int) -> "tuple[int, int] | None":
        """Go `step` matches forward (negative: back), wrapping; the match now current."""
        if not self.found:
            return None
        self.current = (self.current + step) % len(self.found) if self.current >= 0 else 0
        self._render_all()
        line, _ = self.found[self.current]
        self.auto_scroll = False
        self.scroll_to(y=self._starts[line], animate=False)
        return self.found[self.current]

    def set_wrap(self, wrap: bool) -> None:
        self.wrap = wrap
        self._render_all()

    def _texts(self) -> "list[Text]":
        return [log_text(e, self.prefixed) for e in self.entries]

    def _research(self) -> None:
        self.found = matches(self._texts(), self.needle)
        self.current = -1
        self._render_all()

    def _render_all(self) -> None:
        self.clear()
        self._starts = []
        texts = self._texts()
        for index, (line, start) in enumerate(self.found):
            style = CURRENT_MATCH_STYLE if index == self.current else MATCH_STYLE
            texts[line].stylize(style, start, start + len(self.needle))
        for index, text in enumerate(texts):
            self._write(index, text)

    def _write(self, index: int, text: Text) -> None:
        del self._starts[index:]
        self._starts.append(len(self.lines))
        self.write(text, expand=True, scroll_end=None)
