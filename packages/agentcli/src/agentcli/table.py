"""A command's table view: its answer as aligned columns for a person (`--format table`).

Derived from the command's `Table` declarations (agentcli.commands), so the table and the
JSON answer are the same data. Imported only when a table is printed: JSON, the default,
never loads it. Text that came from elsewhere (a process's name, an error's reason) is
printed with its control characters escaped, so no value can move the cursor or change
the terminal's colours.
"""

import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from agentcli.commands import Column, Table, TableView

GAP = "  "
MISSING = "-"
ELLIPSIS = "…"
RIGHT = frozenset({"number", "seconds", "bytes", "percent"})
SGR = {
    "bold": "1",
    "dim": "2",
    "reverse": "7",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}
# C0 and C1 controls (ESC, CSI, newlines, ...): shown as escapes, never sent to the terminal.
CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))}


def render(view: "TableView", data: "Any", *, colour: "bool", now: "float | None" = None) -> "str":
    """One answer as its command's tables, text ending in a newline."""
    now = time.time() if now is None else now
    items = data.get(view.each) if view.each and isinstance(data, dict) else None
    if isinstance(items, list):
        blocks = []
        for item in items:
            name = str(item.get("name", "")) if isinstance(item, dict) else ""
            blocks += _blocks(view.tables, item, colour, now, printable(name))
    else:
        blocks = _blocks(view.tables, data, colour, now, "")
    notes = []
    for key in view.notes:
        note = data.get(key) if isinstance(data, dict) else None
        if note:
            said = note.get("message", note) if isinstance(note, dict) else note
            notes.append(paint(f"{key.replace('_', ' ')}: {printable(said)}", "yellow", colour))
    if notes:
        blocks.append("\n".join(notes))
    return "\n\n".join(blocks) + "\n"


def _blocks(
    tables: "tuple[Table, ...]", data: "Any", colour: "bool", now: "float", of: "str"
) -> "list[str]":
    blocks = []
    for table in tables:
        lines = []
        title = " ".join(part for part in (of, table.title) if part)
        if title:
            lines.append(paint(title, "bold", colour))
        rows = rows_of(table, data)
        if rows:
            lines += _aligned(table.columns, rows, colour, now)
        else:
            lines.append(paint(table.empty, "dim", colour))
        blocks.append("\n".join(lines))
    return blocks


def rows_of(table: "Table", data: "Any") -> "list[Mapping[str, Any]]":
    """The rows a table shows: the list at `rows`, else the answer itself as one row."""
    found = lookup(data, table.rows) if table.rows else None
    found = data if found is None else found
    if isinstance(found, dict):
        return [found]
    return [r for r in found if isinstance(r, dict)] if isinstance(found, list) else []


def lookup(row: "Any", key: "str") -> "Any":
    """The value at a dotted key; with `a|b`, the first alternative that is set."""
    for choice in key.split("|"):
        value = row
        for part in choice.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is not None:
            return value
    return None


def styles_of(column: "Column") -> "Mapping[str, str]":
    """A column's styles: its mapping, or the one its "module:name" names."""
    if not isinstance(column.styles, str):
        return column.styles
    if not column.styles:
        return {}
    import sys

    module, _, name = column.styles.partition(":")
    __import__(module)
    found: Mapping[str, str] = getattr(sys.modules[module], name)
    return found


def _aligned(
    columns: "tuple[Column, ...]", rows: "list[Mapping[str, Any]]", colour: "bool", now: "float"
) -> "list[str]":
    values = [[lookup(row, c.key) for c in columns] for row in rows]
    texts = [
        [_clip(cell(c, v, now), c.width) for c, v in zip(columns, vs, strict=True)] for vs in values
    ]
    widths = [max(len(c.title), *(len(t[i]) for t in texts)) for i, c in enumerate(columns)]
    head = [_pad(c, c.title.upper(), w) for c, w in zip(columns, widths, strict=True)]
    lines = [paint(GAP.join(head).rstrip(), "bold", colour)]
    styles = [styles_of(c) for c in columns]
    for vs, ts in zip(values, texts, strict=True):
        shown = []
        for i, c in enumerate(columns):
            style = styles[i].get(vs[i], "") if isinstance(vs[i], str) else ""
            shown.append(_pad(c, ts[i], widths[i], paint(ts[i], style, colour)))
        lines.append(GAP.join(shown).rstrip())
    return lines


def _pad(column: "Column", text: "str", width: "int", shown: "str" = "") -> "str":
    """`shown` (text, maybe coloured) padded to the width as text is: quantities right."""
    pad = " " * (width - len(text))
    return pad + (shown or text) if column.kind in RIGHT else (shown or text) + pad


def cell(column: "Column", value: "Any", now: "float") -> "str":
    """One value as its column shows it."""
    if value is None or value == "" or value == []:
        return MISSING
    kind = column.kind
    if isinstance(value, bool):
        return "yes" if value else "no"
    if kind == "seconds" and isinstance(value, int | float):
        return duration(value)
    if kind == "bytes" and isinstance(value, int | float):
        return size(value)
    if kind == "percent" and isinstance(value, int | float):
        return f"{value:.1f}%"
    if kind == "time":
        return clock_time(value, now)
    if isinstance(value, list):
        return (" " if kind == "words" else ", ").join(printable(v) for v in value)
    return printable(value)


def duration(seconds: "float") -> "str":
    """0.6s, 5s, 5m13s, 2h03m, 3d04h: two units at most, as `docker ps` and `pm2 ls` show
    them (tenths under 10 s, where they still tell runs apart)."""
    if seconds < 10 and seconds != int(seconds):
        return f"{int(seconds * 10) / 10:.1f}s"
    whole = int(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d{hours:02d}h"
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def size(count: "float") -> "str":
    for unit in ("B", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    raise AssertionError("unreachable")


def clock_time(value: "Any", now: "float") -> "str":
    """An ISO timestamp or epoch seconds in local time: the time alone today, else the date
    too. A value that is neither is shown as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        at = float(value)
    else:
        from datetime import datetime

        try:
            at = datetime.fromisoformat(str(value)).timestamp()
        except ValueError:
            return printable(value)
    local = time.localtime(at)
    if time.localtime(now)[:3] == local[:3]:
        return time.strftime("%H:%M:%S", local)
    return time.strftime("%Y-%m-%d %H:%M:%S", local)


def printable(value: "Any") -> "str":
    """A value as text with its control characters escaped (`\\x1b`): safe on a terminal."""
    if isinstance(value, dict):
        return ", ".join(f"{k}: {printable(v)}" for k, v in value.items())
    return str(value).translate(CONTROLS)


def _clip(text: "str", width: "int") -> "str":
    return text[: width - 1] + ELLIPSIS if width and len(text) > width else text


def paint(text: "str", style: "str", colour: "bool") -> "str":
    """text in a style (rich's words: `bold red`) when colour is on."""
    codes = [SGR[word] for word in style.split() if word in SGR]
    if not (colour and codes and text):
        return text
    return f"\033[{';'.join(codes)}m{text}\033[0m"
