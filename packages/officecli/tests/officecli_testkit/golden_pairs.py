"""Generated pairs of design workbooks whose reports are pinned byte for byte (golden/).

Each pair is made from a seed: a base table, then a new version with planted changes
(changed cells, rows inserted, removed and moved, a duplicate and a blank key, columns
added, removed, renamed and moved, sheets added, removed and renamed). The pairs cover
both ways of reading a sheet (in bulk for plain sheets, the expat scan for sheets with
dates), strings stored inline as openpyxl's write-only mode and other generators write
them, and the presets' paths (sections, scope, generic keys).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from officecli_testkit.design_diff_helpers import write_book

Rows = list[list[Any]]
TYPES = ["string", "integer", "number", "boolean", "date"]


@dataclass(frozen=True)
class Pair:
    name: str
    args: tuple[str, ...]
    write: Callable[[Path, Path], None]


def _table_rows(rng: random.Random, count: int, width: int) -> Rows:
    header = [
        "No",
        "物理名",
        "論理名",
        "型",
        "桁数",
        "必須",
        "説明",
        *[f"列{i}" for i in range(width - 7)],
    ]
    rows: Rows = [header]
    for i in range(count):
        extra = [rng.choice(["", "x", "ｙ", "Ｚ", 3, 2.5]) for _ in range(width - 7)]
        rows.append([i + 1, f"col_{i:04d}", f"項目{i}", rng.choice(TYPES), rng.randint(1, 300), rng.choice(["○", None]), f"説明 {i}", *extra])  # fmt: skip
    return rows


def _plant(
    rng: random.Random, rows: Rows, changes: int, inserted: int, removed: int, moved: int
) -> Rows:
    """A new version: cells changed (never the key), rows inserted, removed and moved."""
    new = [list(r) for r in rows]
    body = new[1:]
    for _ in range(changes):
        row = rng.choice(body)
        col = rng.choice([2, 3, 4, 5, 6])
        value = row[col]
        row[col] = (
            rng.choice([f"{value}改", 999, None, "Ｘ"]) if value not in (None, "") else "新値"
        )
    for _ in range(removed):
        body.pop(rng.randrange(len(body)))
    for _ in range(moved):
        row = body.pop(rng.randrange(len(body)))
        body.insert(rng.randrange(len(body) + 1), row)
    for n in range(inserted):
        body.insert(rng.randrange(len(body) + 1), [None, f"new_{n:03d}", f"新{n}", "string", 10, None, "", *[""] * (len(rows[0]) - 7)])  # fmt: skip
    return [new[0], *body]


def _big_plain(seed: int, count: int) -> Pair:
    """The bench's shape: one plain sheet (read in bulk), keyed by 物理名, many rows."""

    def write(before: Path, after: Path) -> None:
        rng = random.Random(seed)
        rows = _table_rows(rng, count, 12)
        write_book(before, {"項目定義": rows})
        write_book(after, {"項目定義": _plant(rng, rows, count // 20, 8, 6, 6)})

    return Pair(f"plain-{seed}", ("--key", "物理名"), write)


def _inline_strings(seed: int, count: int) -> Pair:
    """The bench's files: written in openpyxl's write-only mode, every value a string
    stored inline in the sheet (no shared strings), blanks as empty cells."""

    def write(before: Path, after: Path) -> None:
        rng = random.Random(seed)
        rows = [[cell_text(v) for v in row] for row in _table_rows(rng, count, 10)]
        new = [[cell_text(v) for v in row] for row in _plant(rng, rows, count // 20, 6, 5, 5)]
        new[40][0] = "  "  # a value turned to spaces
        new[41][2] = "a&b <c> \"d\" 'e' ＆ \u2028"  # characters XML escapes
        for path, table in ((before, rows), (after, new)):
            write_inline(path, "項目定義", table)

    return Pair(f"inline-{seed}", ("--key", "物理名"), write)


def cell_text(value: Any) -> str:
    return "" if value is None else str(value)


def write_inline(path: Path, name: str, rows: list[list[str]]) -> None:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet(name)
    for row in rows:
        sheet.append(row)
    book.save(path)


def _table_preset(seed: int) -> Pair:
    """Table preset: a title block above, a column renamed and one added, a duplicate and
    a blank key, a second sheet added and one renamed."""

    def write(before: Path, after: Path) -> None:
        rng = random.Random(seed)
        rows = _table_rows(rng, 120, 9)
        new = _plant(rng, rows, 10, 3, 3, 2)
        new[0][2] = "カラム名(論理)"  # same role as 論理名: renamed
        new = [[*r, "" if i else "備考"] for i, r in enumerate(new)]  # a column added
        new[5][1] = new[7][1]  # a duplicate key
        new[9][1] = None  # a blank key
        title: Rows = [["テーブル定義書"], ["テーブル名", "users"], [None]]
        cover = [["版数", "1.0"], ["作成者", "sato"]]
        write_book(before, {"users": [*title, *rows], "表紙": cover, "旧シート": [["K", "V"], ["a", 1]]})  # fmt: skip
        write_book(after, {"users": [*title, *new], "表紙": [["版数", "1.1"], ["作成者", "sato"]], "新シート": [["K", "V"], ["a", 1]]})  # fmt: skip

    return Pair(f"table-{seed}", ("--type", "table"), write)


def _api_sections(seed: int) -> Pair:
    """API preset: section rows (request/response), the same name in two sections, a moved
    column, optional and required items added."""

    def write(before: Path, after: Path) -> None:
        rng = random.Random(seed)
        header = ["No", "物理名", "論理名", "型", "必須", "桁数"]

        def items(prefix: str, count: int) -> Rows:
            return [[i, f"{prefix}{i}", f"項目{i}", rng.choice(TYPES), rng.choice(["○", ""]), rng.randint(1, 99)] for i in range(count)]  # fmt: skip

        request, response = items("f", 30), items("f", 40)
        old: Rows = [["メソッド", "GET"], ["パス", "/users/{id}"], [None], header, ["リクエスト"], *request, ["レスポンス"], *response]  # fmt: skip
        req2, res2 = [list(r) for r in request], [list(r) for r in response]
        req2[4][3] = "integer" if req2[4][3] != "integer" else "string"
        res2.insert(3, [99, "added_opt", "任意", "string", "", 5])
        res2.insert(8, [98, "added_req", "必須", "string", "○", 5])
        del res2[20]
        res2.append(res2.pop(1))
        moved = [
            [r[0], r[1], r[2], r[4], r[3], r[5]] for r in [header, *req2, *res2]
        ]  # 型 <-> 必須
        new: Rows = [["メソッド", "POST"], ["パス", "/users/{id}"], [None], moved[0], ["リクエスト"], *moved[1 : 1 + len(req2)], ["レスポンス"], *moved[1 + len(req2) :]]  # fmt: skip
        write_book(before, {"ユーザー取得": old})
        write_book(after, {"ユーザー照会": new})

    return Pair(f"api-{seed}", ("--type", "api"), write)


def _expat_sheet(seed: int) -> Pair:
    """A sheet with dates (a number format that is not General): read by the expat scan,
    not in bulk; options -w -i."""

    def write(before: Path, after: Path) -> None:
        import datetime

        rng = random.Random(seed)
        rows: Rows = [["Code", "Name", "Date", "Price", "Note"]]
        for i in range(80):
            day = datetime.date(2024, 1, 1) + datetime.timedelta(days=rng.randint(0, 300))
            rows.append([f"K{i:03d}", rng.choice(["Apple", "apple ", "Banana", "ｃｈｅｒｒｙ"]), day, rng.randint(1, 500), rng.choice(["", "a  b", "A B"])])  # fmt: skip
        new = _plant_generic(rng, rows)
        write_book(before, {"Data": rows})
        write_book(after, {"Data": new})

    return Pair(f"expat-{seed}", ("-w", "-i"), write)


def _plant_generic(rng: random.Random, rows: Rows) -> Rows:
    new = [list(r) for r in rows]
    for _ in range(8):
        row = rng.choice(new[1:])
        row[rng.choice([1, 3, 4])] = rng.choice(["Cherry", 7, "a b", "A  b "])
    new.insert(10, ["K900", "Kiwi", None, 1, ""])
    del new[30]
    new.append(new.pop(5))
    return new


PAIRS = [
    _big_plain(1, 600),
    _big_plain(2, 1500),
    _table_preset(3),
    _table_preset(4),
    _api_sections(5),
    _api_sections(6),
    _expat_sheet(7),
    _inline_strings(8, 900),
]
