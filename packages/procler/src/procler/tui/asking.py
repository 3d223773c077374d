"""The TUI's actions that ask something before they run a command: which recipe, which
snippet and its arguments, how many instances (`procler scale`), a line for a process's
stdin (`procler send`), and which namespace to show (from `procler namespace list`)."""

from typing import Any, Protocol

from textual import work

from procler.tui.client import Answer, Client
from procler.tui.screens import Ask, Choose, Confirm
from procler.tui.views import EVERY_NAMESPACE, replica_counts


class Host(Protocol):
    """What these actions use of the app they are mixed into (ProclerApp)."""

    client: Client
    rows: list[dict[str, Any]]
    namespace: str | None

    def current_name(self) -> str | None: ...
    def command(self, name: str, arguments: dict[str, Any]) -> Any: ...
    def text_command(self, name: str, arguments: dict[str, Any], title: str, view: str) -> Any: ...
    def show_error(self, answer: Answer) -> None: ...
    def show_rows(self, rows: list[dict[str, Any]]) -> None: ...
    def ask_arguments(
        self, snippet: dict[str, Any], left: list[dict[str, Any]], given: list[str]
    ) -> None: ...
    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...
    def call_from_thread(self, callback: Any, *args: Any) -> Any: ...


class AskingActions:
    """Mixed into ProclerApp; each method's self is its Host."""

    @work(thread=True, group="commands")
    def action_recipe(self: Host) -> None:
        listed = self.client.run("recipe list")
        if not listed.ok:
            self.call_from_thread(self.show_error, listed)
            return
        names = [r["name"] for r in listed.data["recipes"]]

        def chosen(name: "str | None") -> None:
            if name:
                self.text_command("recipe run", {"name": name}, f"Recipe {name}", "recipe")

        self.call_from_thread(self.push_screen, Choose("Run which recipe?", names), chosen)

    @work(thread=True, group="commands")
    def action_snippet(self: Host) -> None:
        listed = self.client.run("snippet list")
        if not listed.ok:
            self.call_from_thread(self.show_error, listed)
            return
        snippets = {s["name"]: s for s in listed.data["snippets"]}

        def chosen(name: "str | None") -> None:
            if name:
                self.ask_arguments(snippets[name], list(snippets[name]["args"]), [])

        self.call_from_thread(
            self.push_screen, Choose("Run which snippet?", list(snippets)), chosen
        )

    def ask_arguments(
        self: Host,
        snippet: "dict[str, Any]",
        left: "list[dict[str, Any]]",
        given: "list[str]",
    ) -> None:
        """Ask for each argument in turn (its default filled in), then run the snippet;
        one marked confirm is run only after a yes."""
        if left:
            arg, rest = left[0], left[1:]

            def answered(value: "str | None") -> None:
                if value is not None:
                    self.ask_arguments(snippet, rest, [*given, f"{arg['name']}={value}"])

            default = "" if arg["default"] is None else str(arg["default"])
            self.push_screen(
                Ask(f"{snippet['name']}: {arg['name']} ({arg['type']})", default), answered
            )
            return
        values = {"name": snippet["name"], "arg": given, "yes": True}
        title = f"Snippet {snippet['name']}"
        if not snippet["confirm"]:
            self.text_command("snippet run", values, title, "snippet")
            return

        def confirmed(yes: "bool | None") -> None:
            if yes:
                self.text_command("snippet run", values, title, "snippet")

        self.push_screen(Confirm(f"Run {snippet['name']}: {snippet['command']}?"), confirmed)

    def action_send(self: Host) -> None:
        """Ask for a line and write it to the cursor's process's stdin (`procler send`);
        a process without `stdin: true` answers STDIN_CLOSED, shown as any error."""
        name = self.current_name()
        if not name:
            return

        def answered(text: "str | None") -> None:
            if text is not None:
                self.command("send", {"name": name, "text": text})

        self.push_screen(Ask(f"Send a line to {name}'s stdin:"), answered)

    def action_scale(self: Host) -> None:
        """Ask how many instances the cursor's process (or the process an instance is of)
        should run; `scale` answers NOT_REPLICATED, shown as any error, for one without."""
        name = self.current_name()
        if not name:
            return
        row = next(r for r in self.rows if r["name"] == name)
        base = row["replica_of"] or name
        count = replica_counts(self.rows).get(base, 1)

        def answered(text: "str | None") -> None:
            if text:
                self.command("scale", {"name": base, "count": text.strip()})

        self.push_screen(Ask(f"Scale {base} to how many instances?", str(count)), answered)

    @work(thread=True, group="commands")
    def action_namespace(self: Host) -> None:
        listed = self.client.run("namespace list")
        if not listed.ok:
            self.call_from_thread(self.show_error, listed)
            return
        names = [EVERY_NAMESPACE, *(n["name"] for n in listed.data["namespaces"])]

        def chosen(name: "str | None") -> None:
            if name is not None:
                self.namespace = None if name == EVERY_NAMESPACE else name
                self.show_rows(self.rows)

        self.call_from_thread(self.push_screen, Choose("Show which namespace?", names), chosen)
