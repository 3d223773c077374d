"""What the TUI shows, as plain functions of the commands' answers (no widgets, so they are
tested directly): status colours from the one state machine, table cells, log lines, the
details view (`why` and `history`)."""

from collections import Counter

from rich.text import Text

from procler import states

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STATUS_STYLE = {
    states.STOPPED: "dim",
    states.STARTING: "yellow",
    states.RUNNING: "green",
    states.HEALTHY: "bold green",
    states.UNHEALTHY: "bold red",
    states.STOPPING: "yellow",
    states.EXITED: "cyan",
    states.FAILED: "bold red",
    states.BACKOFF: "magenta",
    states.SCHEDULED: "blue",
}
COLUMNS = (
    "name",
    "status",
    "health",
    "pid",
    "uptime",
    "restarts",
    "cpu",
    "memory",
    "namespace",
    "next run",
    "replicas",
)
EVERY_NAMESPACE = "(every namespace)"  # the namespace filter's first choice: no filter
MATCH_STYLE = "reverse"
CURRENT_MATCH_STYLE = "bold black on yellow"


def status_cell(status: str) -> Text:
    return Text(status, style=STATUS_STYLE[status])


def _uptime(seconds: "float | None") -> str:
    if seconds is None:
        return ""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def _memory(rss: "int | None") -> str:
    return "" if rss is None else f"{rss / 2**20:.1f} MiB"


def replica_counts(rows: "list[dict[str, Any]]") -> "dict[str, int]":
    """How many instances each process with replicas runs, from its instances' rows."""
    return dict(Counter(r["replica_of"] for r in rows if r["replica_of"]))


def row_cells(row: "dict[str, Any]", replicas: "dict[str, int]") -> "tuple[str | Text, ...]":
    """One status row as the table's cells, in COLUMNS order (replicas: replica_counts)."""
    health = row.get("health") or {}
    cpu = row.get("cpu_percent")
    base = row["replica_of"]
    return (
        row["name"],
        status_cell(row["status"]),
        str(health.get("status", "")),
        "" if row["pid"] is None else str(row["pid"]),
        _uptime(row["uptime_seconds"]),
        str(row["restarts"]),
        "" if cpu is None else f"{cpu:.1f}%",
        _memory(row["memory_rss_bytes"]),
        ", ".join(row["namespaces"]),
        str((row.get("schedule") or {}).get("next_run") or ""),
        str(replicas[base]) if base else "",
    )


def shown(
    rows: "list[dict[str, Any]]", text: str, hide_stopped: bool, namespace: "str | None" = None
) -> "list[dict[str, Any]]":
    """The rows the filters keep: name containing the text (any case), in the namespace
    when one is chosen, at rest hidden on ask."""
    needle = text.casefold()
    return [
        r
        for r in rows
        if needle in r["name"].casefold()
        and (namespace is None or namespace in r["namespaces"])
        and not (hide_stopped and r["status"] in states.AT_REST)
    ]


def log_text(line: "dict[str, Any]", prefix: bool) -> Text:
    """A log line as display text: ANSI colours kept, never read as markup."""
    text = Text.from_ansi(str(line["text"]), style="red" if line.get("stream") == "stderr" else "")
    if prefix:
        text = Text.assemble((f"{line['name']} | ", "bold"), text)
    return text


def matches(texts: "list[Text]", needle: str) -> "list[tuple[int, int]]":
    """(line index, start offset) of every case-insensitive occurrence of needle: a literal
    search, so any text the user types runs in linear time."""
    if not needle:
        return []
    folded = needle.casefold()
    found = []
    for index, text in enumerate(texts):
        plain = text.plain.casefold()
        start = plain.find(folded)
        while start != -1:
            found.append((index, start))
            start = plain.find(folded, start + len(folded))
    return found


def reload_question(diff: "dict[str, Any]") -> str:
    if "added" not in diff:  # no supervisor runs: the next one reads the file as it is
        return "No supervisor runs: the next start reads the config as it is. Nothing to apply."
    changed = [f"{c['name']} ({', '.join(c['fields'])})" for c in diff["changed"]]
    lines = [
        "Apply this reload?",
        f"added: {', '.join(diff['added']) or '-'}",
        f"changed: {', '.join(changed) or '-'}",
        f"removed: {', '.join(diff['removed']) or '-'}",
    ]
    lines.append(f"unchanged: {len(diff['unchanged'])}")
    return "\n".join(lines)


def describe(view: str, data: "dict[str, Any]") -> str:
    """The body of a text view from its command's answer."""
    if view == "recipe":
        steps = [f"{s['id']}: {s['status']}" for s in data["steps"]]
        return "\n".join([f"run {data['run_id']}: {data['status']}", *steps])
    if view == "snippet":
        return f"exit {data['exit_code']}\n{data['stdout']}{data['stderr']}"
    if view == "graph":
        levels = data["start_order"]
        return "\n".join(f"level {i}: {', '.join(level)}" for i, level in enumerate(levels, 1))
    lines = [str(data["why"]), ""]
    for dep in data["dependencies"]:
        holds = "holds" if dep["holds"] else "waiting"
        lines.append(f"needs {dep['name']} {dep['condition']}: {dep['status']} ({holds})")
    if data["last_exit"]:
        lines.append(f"last exit: {data['last_exit']}")
    lines += [f"stderr: {line}" for line in data["stderr"]]
    budget = data["restart_budget"]
    lines.append(f"restarts: {budget['restarts']} of {budget['max_restarts']} ({budget['policy']})")
    for key, label in (("health", "readiness (healthcheck)"), ("liveness", "liveness")):
        check = data.get(key)
        if check is not None:
            lines.append(
                f"{label}: {check['status']}, {check['failures']} failure(s) in a row; "
                f"last: {check['last_output'] or '-'}"
            )
    return "\n".join(lines)


def history_lines(data: "dict[str, Any]") -> "list[str]":
    """`procler history`'s health moves and last exits, newest first, for the details view."""
    health, exits = data["health"], data["exits"]
    lines = ["health history, newest first:" if health else "health history: none"]
    lines += [
        f"  {m['at']}  run {m['run']}  {m['from']} -> {m['to']}  {m['reason']}" for m in health
    ]
    lines.append("last exits, newest first:" if exits else "last exits: none")
    for x in exits:
        if x["exit_code"] is not None:
            how = f"exit code {x['exit_code']}"
        else:
            how = "no exit code" if x["signal"] is None else f"signal {x['signal']}"
        ran = "" if x["duration_seconds"] is None else f"  after {x['duration_seconds']}s"
        run = "-" if x["run"] is None else x["run"]
        lines.append(f"  {x['ended_at']}  run {run}  {how}{ran}  {x['reason']}")
    return lines
