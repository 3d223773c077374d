"""The first Markdown table of a file, streamed line by line."""

from __future__ import annotations

from pathlib import Path

from officecli.readers.tabular.table import (
    Opened,
    RecordIterator,
    TableReadError,
    closing_on_error,
    in_chunks,
    open_text,
)


def split_markdown_row(line: str) -> list[str]:
    """Cells of `| a | b \\| c |`; an escaped pipe stays inside its cell."""
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    cells, current, i = [], [], 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1 : i + 2] == "|":
            current.append("|")
            i += 2
            continue
        if text[i] == "|":
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(text[i])
        i += 1
    cells.append("".join(current).strip())
    return cells


def _is_separator(cells: list[str]) -> bool:
    return bool(cells) and all(c and set(c) <= set(":- ") and "-" in c for c in cells)


def markdown_rows(path: Path, encoding: str) -> Opened:
    fh = open_text(path, encoding)  # closed by open_table
    lines = enumerate(fh, start=1)
    previous: list[str] | None = None
    columns: list[str] = []
    try:
        for _, line in lines:
            cells = split_markdown_row(line) if line.lstrip().startswith("|") else None
            if cells is not None and previous is not None and _is_separator(cells):
                columns = previous
                break
            previous = cells
    except UnicodeError as exc:
        fh.close()
        raise TableReadError(f"{path.name}: {exc}") from None
    if not columns:
        fh.close()
        raise TableReadError(f"{path.name}: no Markdown table found")
    columns = closing_on_error(fh.close, path, columns)

    def rows() -> RecordIterator:
        width = len(columns)
        try:
            for number, line in lines:
                if not line.lstrip().startswith("|"):
                    break
                cells = split_markdown_row(line)[:width]
                yield number, cells + [""] * (width - len(cells))
        except UnicodeError as exc:
            raise TableReadError(f"{path.name}: {exc}") from None

    return columns, in_chunks(rows()), fh.close
