"""The TUI application: the process table above, the selected processes' logs below.

Everything it shows comes from the CLI's commands (procler.tui.client), run in worker
threads so the screen never waits on the supervisor; results come back to the event loop
with call_from_thread. Quitting leaves every process as it is.
"""

import time
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Footer, Static

from procler.cli.event_feed import Feed
from procler.tui import key_bindings as keys
from procler.tui.asking import AskingActions
from procler.tui.client import Answer, Client
from procler.tui.log_pane import LogPane
from procler.tui.palette import ActionCommands
from procler.tui.screens import Ask, Confirm, TextView
from procler.tui.views import (
    COLUMNS,
    describe,
    details,
    reload_question,
    replica_counts,
    row_cells,
    shown,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CSS = """
#processes { height: 1fr; }
#logs { height: 2fr; border-top: solid $accent; }
#banner { height: auto; background: $error; color: $text; display: none; }
#banner.shown { display: block; }
#state { height: 1; color: $text-muted; }
Confirm, Ask, TextView { align: center middle; }
#dialog { width: 80%; height: auto; max-height: 80%; border: thick $accent; background: $surface; padding: 1 2; }
"""


class ProclerApp(AskingActions, App[None]):
    """The process table, the log pane and the actions bound to keys."""

    CSS = CSS
    TITLE = "procler"
    # Seconds between two refreshes of the rows: uptime, CPU and memory move with no event.
    REFRESH_EVERY = 2.0
    BINDINGS: ClassVar[list[BindingType]] = [*keys.bindings()]
    COMMANDS = App.COMMANDS | {ActionCommands}

    def __init__(self, client: Client, keymap: "dict[str, str] | None" = None) -> None:
        super().__init__()
        self.client = client
        self.keymap = keymap or {}
        self.rows: list[dict[str, Any]] = []
        self.supervisor = "none"  # live, gone (it answered, then stopped) or none (not yet)
        self.filter_text = ""
        self.hide_stopped = False
        self.namespace: str | None = None  # only this namespace's processes shown
        self.selected: set[str] = set()
        self.log_run = "current"
        self.following = True
        self.wrapping = False
        self.feed = Feed(client.config, self._from_feed, self._feed_lost)
        self.log_page = 0  # 0: the newest lines; each older page is LOG_PAGE lines back
        self._shown_logs: tuple[tuple[str, ...], str, int] = ((), "", 0)

    def compose(self) -> ComposeResult:
        # Kept, not queried: a query looks in the screen on top, which may be a dialog.
        self.banner = Static(id="banner")
        self.table: DataTable[str | Text] = DataTable(
            id="processes", cursor_type="row", zebra_stripes=True
        )
        self.state_line = Static(id="state")
        self.pane = LogPane(id="logs")
        yield from (self.banner, self.table, self.state_line, self.pane, Footer())

    def on_mount(self) -> None:
        self.set_keymap(self.keymap)
        self.table.add_columns(*COLUMNS)
        self.refresh_rows()
        self.follow_feed()
        self.refresher = self.set_interval(self.REFRESH_EVERY, self.refresh_rows)

    def on_unmount(self) -> None:
        self.feed.stop_following()

    # -- live: the event stream --------------------------------------------------------

    @work(thread=True, group="feed")
    def follow_feed(self) -> None:
        self.feed.run()

    def _from_feed(self, message: "dict[str, Any]") -> None:
        if not self.feed.stopped.is_set():
            self.call_from_thread(self.apply_event, message)

    def _feed_lost(self, gone: bool) -> None:
        if not self.feed.stopped.is_set():
            self.call_from_thread(self.show_supervisor_gone, gone)

    def apply_event(self, message: "dict[str, Any]") -> None:
        """One event-stream message: the table follows status and health changes, the
        log pane the lines of the processes it shows."""
        kind = message["type"]
        if kind == "snapshot":
            self.show_rows(message["processes"])
        elif kind == "log":
            showing = message["name"] in self._shown_logs[0]
            if showing and (self.log_run, self.log_page) == ("current", 0):
                self.pane.append(message)
        elif kind in ("gap", "dropped"):
            self._shown_logs = ((), "", 0)  # something was missed: fetch the page again
            self.refresh_rows()
        else:  # status, health, a recipe step: the rows as `status` answers them now
            self.refresh_rows()

    def show_supervisor_gone(self, gone: bool) -> None:
        """Say so when the supervisor went away (not when none ran yet: the table then
        shows the state on disk, and the first start brings one)."""
        self.supervisor = (
            "gone" if gone and self.supervisor != "none" else ("none" if gone else "live")
        )
        self.banner.update(
            Text("The supervisor went away: reconnecting (processes are not touched).")
        )
        self.banner.set_class(self.supervisor == "gone", "shown")
        self.show_state()
        self.refresh_rows()  # from the new supervisor, or from the disk

    # -- data in ---------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="rows")
    def refresh_rows(self) -> None:
        rows = self.client.processes()
        self.call_from_thread(self.show_rows, rows)

    def show_rows(self, rows: "list[dict[str, Any]]") -> None:
        """Redraw the table from status rows, keeping the cursor on the same process."""
        self.rows = rows
        table = self.table
        keep = self.current_name()
        table.clear()
        replicas = replica_counts(rows)
        now = time.time()
        for row in shown(rows, self.filter_text, self.hide_stopped, self.namespace):
            mark = "*" if row["name"] in self.selected else ""
            cells = row_cells(row, replicas, now)
            # None, not "": no label column at all until a process is selected
            table.add_row(*cells, key=row["name"], label=mark or None)
        names = [str(key.value) for key in table.rows]
        if keep in names:
            table.move_cursor(row=names.index(keep))
        self.show_state()
        self.load_logs()

    def current_name(self) -> "str | None":
        table = self.table
        if not table.row_count:
            return None
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        return str(key.value)

    def log_names(self) -> "list[str]":
        """The processes whose logs are shown: the selected ones, else the cursor's."""
        if self.selected:
            return sorted(self.selected)
        name = self.current_name()
        return [name] if name else []

    def on_data_table_row_highlighted(self, _event: DataTable.RowHighlighted) -> None:
        if not self.selected:
            self.load_logs()

    def load_logs(self) -> None:
        """Fetch the log page shown, unless it is the one already there."""
        names = tuple(self.log_names())
        if names != self._shown_logs[0]:
            self.log_page = 0
        wanted = (names, self.log_run, self.log_page)
        if wanted == self._shown_logs:
            return
        self._shown_logs = wanted
        self.feed.follow_logs(names)
        if names:
            self.fetch_logs(list(names), self.log_run, self.log_page)

    @work(thread=True, exclusive=True, group="logs")
    def fetch_logs(self, names: "list[str]", run: str, page: int) -> None:
        answer = self.client.logs(names, run=run, page=page)
        self.call_from_thread(self.show_logs, (tuple(names), run, page), answer)

    def show_logs(self, asked: "tuple[tuple[str, ...], str, int]", answer: Answer) -> None:
        if asked != self._shown_logs:
            return  # a page asked before another (a thread worker runs on once replaced)
        names = asked[0]
        pane = self.pane
        if not answer.ok:
            pane.show([], prefixed=False, older=False)
            self.show_error(answer)
            return
        pane.show(answer.data["lines"], prefixed=len(names) > 1, older=answer.data["older"])

    def show_state(self) -> None:
        count = len(self.rows)
        parts = [f"{count} process{'' if count == 1 else 'es'}"]
        if self.supervisor == "none":
            parts.append("no supervisor runs (the state on disk)")
        if self.filter_text:
            parts.append(f"filter {self.filter_text!r}")
        if self.namespace is not None:
            parts.append(f"namespace {self.namespace}")
        if self.hide_stopped:
            parts.append("stopped hidden")
        parts.append("follow" if self.following else "follow off")
        parts.append("wrap" if self.wrapping else "no wrap")
        parts.append(f"run {self.log_run}")
        if self.log_page:
            parts.append(f"log page -{self.log_page}")
        self.state_line.update(Text(" · ".join(parts)))

    def show_error(self, answer: Answer) -> None:
        self.push_screen(TextView("The command failed", answer.error_text(), view_id="error"))

    # -- actions ---------------------------------------------------------------------

    @work(thread=True, group="commands")
    def command(self, name: str, arguments: "dict[str, Any]") -> None:
        """Run one CLI command; show its error and suggestion if it fails, then refresh."""
        answer = self.client.run(name, **arguments)
        if not answer.ok:
            self.call_from_thread(self.show_error, answer)
        self.call_from_thread(self.refresh_rows)

    def action_start(self) -> None:
        name = self.current_name()
        if name:
            self.command("start", {"name": name})

    def action_restart(self) -> None:
        name = self.current_name()
        if name:
            self.command("restart", {"name": name})

    def action_stop(self) -> None:
        name = self.current_name()
        if not name:
            return

        def answered(yes: "bool | None") -> None:
            if yes:
                self.command("stop", {"name": name})

        self.push_screen(Confirm(f"Stop {name}?"), answered)

    def action_select(self) -> None:
        name = self.current_name()
        if name:
            self.selected ^= {name}
            self.show_rows(self.rows)

    def action_filter(self) -> None:
        def answered(text: "str | None") -> None:
            if text is not None:
                self.filter_text = text
                self.show_rows(self.rows)

        self.push_screen(Ask("Filter processes by name:", self.filter_text), answered)

    def action_toggle_stopped(self) -> None:
        self.hide_stopped = not self.hide_stopped
        self.show_rows(self.rows)

    def action_search(self) -> None:
        pane = self.pane

        def answered(text: "str | None") -> None:
            if text is not None:
                found = pane.search(text)
                self.notify(f"{found} match(es) for {text!r}" if text else "search cleared")

        self.push_screen(Ask("Search the logs for:", pane.needle), answered)

    def action_next_match(self) -> None:
        self.pane.jump(1)

    def action_previous_match(self) -> None:
        self.pane.jump(-1)

    def action_toggle_follow(self) -> None:
        self.following = not self.following
        pane = self.pane
        pane.auto_scroll = self.following
        if self.following:
            pane.scroll_end(animate=False)
        self.show_state()

    def action_toggle_wrap(self) -> None:
        self.wrapping = not self.wrapping
        self.pane.set_wrap(self.wrapping)
        self.show_state()

    def action_toggle_previous_run(self) -> None:
        self.log_run = "previous" if self.log_run == "current" else "current"
        self.log_page = 0
        self.show_state()
        self.load_logs()

    def action_older_logs(self) -> None:
        if self.pane.older:
            self.log_page += 1
            self.show_state()
            self.load_logs()

    def action_newer_logs(self) -> None:
        if self.log_page:
            self.log_page -= 1
            self.show_state()
            self.load_logs()

    def action_details(self) -> None:
        name = self.current_name()
        if name:
            self.show_details(name)

    @work(thread=True, group="commands")
    def show_details(self, name: str) -> None:
        """The details view: `why`, then `history` (its health moves and last exits)."""
        why = self.client.run("why", name=name)
        past = self.client.run("history", name=name) if why.ok else why
        if not past.ok:
            self.call_from_thread(self.show_error, past)
            return
        body = details(why.data, past.data, time.time())
        view = TextView(f"Why {name} is as it is", body, view_id="details")
        self.call_from_thread(self.push_screen, view)

    def action_graph(self) -> None:
        self.text_command("config explain", {}, "Start order", "graph")

    @work(thread=True, group="commands")
    def text_command(self, name: str, arguments: "dict[str, Any]", title: str, view: str) -> None:
        answer = self.client.run(name, **arguments)
        if not answer.ok:
            self.call_from_thread(self.show_error, answer)
            return
        body = describe(view, answer.data)
        self.call_from_thread(self.push_screen, TextView(title, body, view_id=view))

    @work(thread=True, group="commands")
    def action_reload(self) -> None:
        """Show what a reload would change; apply it only on yes."""
        planned = self.client.run("reload", dry_run=True)
        if not planned.ok:
            self.call_from_thread(self.show_error, planned)
            return

        def answered(yes: "bool | None") -> None:
            if yes:
                self.command("reload", {})

        self.call_from_thread(self.push_screen, Confirm(reload_question(planned.data)), answered)

    def action_help(self) -> None:
        lines = [f"{self.key_shown(a.id):>14}  {a.description}" for a in keys.ACTIONS]
        self.push_screen(TextView("Key bindings", "\n".join(lines), view_id="help"))

    def key_of(self, action: str) -> str:
        default = next(a.key for a in keys.ACTIONS if a.id == action)
        return self.keymap.get(action, default)

    def key_shown(self, action: str) -> str:
        """An action's key as a person types it: `/` and `?`, not `slash`, `question_mark`."""
        return self.get_key_display(Binding(self.key_of(action), action))
