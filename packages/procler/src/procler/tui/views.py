"""What the TUI shows, as plain functions of the commands' answers (no widgets, so they are
tested directly): status colours from the one state machine, table cells, log lines, the
details view (`why` and `history`)."""

import signal
from collections import Counter

from rich.text import Text

from agentcli.table import clock_time, duration, printable, size
from procler import states
from procler.status_styles import PROCESS as STATUS_STYLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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


def replica_counts(rows: "list[dict[str, Any]]") -> "dict[str, int]":
    """How many instances each process with replicas runs, from its instances' rows."""
    return dict(Counter(r["replica_of"] for r in rows if r["replica_of"]))


def row_cells(
    row: "dict[str, Any]", replicas: "dict[str, int]", now: float
) -> "tuple[str | Text, ...]":
    """One status row as the table's cells, in COLUMNS order (replicas: replica_counts;
    times in local time as of now)."""
    health = row.get("health") or {}
    cpu = row.get("cpu_percent")
    base = row["replica_of"]
    next_run = (row.get("schedule") or {}).get("next_run")
    return (
        row["name"],
        status_cell(row["status"]),
        str(health.get("status", "")),
        "" if row["pid"] is None else str(row["pid"]),
        "" if row["uptime_seconds"] is None else duration(row["uptime_seconds"]),
        str(row["restarts"]),
        "" if cpu is None else f"{cpu:.1f}%",
        "" if row["memory_rss_bytes"] is None else size(row["memory_rss_bytes"]),
        ", ".join(row["namespaces"]),
        "" if not next_run else clock_time(next_run, now),
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
    """The body of a text view from its command's answer (the details view: `details`)."""
    if view == "recipe":
        steps = [f"{s['id']}: {s['status']}" for s in data["steps"]]
        return "\n".join([f"run {data['run_id']}: {data['status']}", *steps])
    if view == "snippet":
        return f"exit {data['exit_code']}\n{data['stdout']}{data['stderr']}"
    levels = data["start_order"]
    return "\n".join(f"level {i}: {', '.join(level)}" for i, level in enumerate(levels, 1))


# `why`'s answer in the order a person reads it; keys it may carry besides come after,
# their values still written out for a person (never a Python dict or list).
WHY_SHOWN = (
    "status",
    "health",
    "liveness",
    "dependencies",
    "dependency_down",
    "waiting_for",
    "last_exit",
    "restart_budget",
)
WHY_SAID = frozenset({"name", "why", "desired", "stderr"})  # the view says these its own way
WHY_WHEN_SET = frozenset({"dependency_down"})  # a row only when there is something to say


def details(why: "dict[str, Any]", history: "dict[str, Any]", now: float) -> str:
    """The details view: `why` (why it is as it is), then `history` (its health moves and
    last exits), every value as a person reads it."""
    keys = [*WHY_SHOWN, *(k for k in why if k not in WHY_SHOWN and k not in WHY_SAID)]
    shown = [k for k in keys if k in why and (k not in WHY_WHEN_SET or why[k] is not None)]
    rows = [_why_row(key, why, now) for key in shown]
    rows.append(("stderr", "-" if not why["stderr"] else "its last lines:"))
    width = max(len(label) for label, _ in rows)
    lines = [str(why["why"]), "", *(f"{label.ljust(width)}  {text}" for label, text in rows)]
    lines += [f"  {printable(line)}" for line in why["stderr"]]
    return "\n".join([*lines, "", *history_lines(history, now)])


def _why_row(key: str, why: "dict[str, Any]", now: float) -> "tuple[str, str]":
    value = why[key]
    if key == "status":
        return "status", f"{value} (desired: {why.get('desired', '-')})"
    if key in ("health", "liveness") and isinstance(value, dict):  # the two checks
        said = f"{value['status']}: {value['kind']} check, {value['checks']} checks, "
        said += f"{value['failures']} failures"
        if value.get("last_output"):
            said += f"; last output: {printable(value['last_output'])}"
        return key, said
    if key == "dependencies":
        needs = [
            f"{d['name']} {d['condition']}: {d['status']} ({'holds' if d['holds'] else 'waiting'})"
            for d in value
        ]
        return "needs", "; ".join(needs) or "-"
    if key == "dependency_down" and isinstance(value, dict):
        return "root cause", f"{value['name']} is down ({' -> '.join(value['path'])})"
    if key == "last_exit":
        return "last exit", exit_text(value, now) if value else "none yet"
    if key == "restart_budget":
        budget = f"{value['restarts']} of {value['max_restarts']} ({value['policy']})"
        return "restarts", f"{budget}, {value['left']} left" if "left" in value else budget
    return key.replace("_", " "), readable(value)


def exit_text(last: "dict[str, Any]", now: float) -> str:
    """How a run ended: `signal 15 (SIGTERM) at 17:11:34: stop requested`."""
    at = f" at {clock_time(last['at'], now)}" if last.get("at") else ""
    return f"{how_it_ended(last.get('code'), last.get('signal'))}{at}: {last.get('reason') or '-'}"


def how_it_ended(code: "int | None", signum: "int | None") -> str:
    if code is not None:
        return f"exit code {code}"
    if signum is None:
        return "no exit code"
    try:
        return f"signal {signum} ({signal.Signals(signum).name})"
    except ValueError:
        return f"signal {signum}"


def readable(value: "Any") -> str:
    """Any value of an answer written out for a person: no Python repr."""
    if value is None or value == [] or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(readable(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {readable(v)}" for k, v in value.items())
    return printable(value)


def history_lines(data: "dict[str, Any]", now: float) -> "list[str]":
    """`procler history`'s health moves and last exits, newest first, for the details view."""
    health, exits = data["health"], data["exits"]
    lines = ["health history, newest first:" if health else "health history: none"]
    lines += [
        f"  {clock_time(m['at'], now)}  run {m['run']}  {m['from']} -> {m['to']}  "
        f"{printable(m['reason'])}"
        for m in health
    ]
    lines.append("last exits, newest first:" if exits else "last exits: none")
    for x in exits:
        how = how_it_ended(x["exit_code"], x["signal"])
        ran = "" if x["duration_seconds"] is None else f" after {duration(x['duration_seconds'])}"
        run = "-" if x["run"] is None else x["run"]
        ended = clock_time(x["ended_at"], now)
        lines.append(f"  {ended}  run {run}  {how}{ran}  {printable(x['reason'])}")
    return lines
