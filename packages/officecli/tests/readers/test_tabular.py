"""Tabular readers: encodings, row numbering as a person counts, every format."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import openpyxl
import pytest
from officecli_testkit.sheets import active_sheet

from officecli.readers.tabular import CHUNK_ROWS, TableReadError, open_table, split_markdown_row

CORPUS = Path(__file__).resolve().parents[4] / ".." / "shared" / "corpus"


def _read(path: Path, **kw: str) -> tuple[str, list[str], list[tuple[int, dict[str, str]]]]:
    with open_table(path, **kw) as table:
        return table.encoding, table.columns, list(table.rows)


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        ("金額,メモ\n1,あ\n".encode(), "utf-8"),
        (b"\xef\xbb\xbf" + "金額,メモ\n1,あ\n".encode(), "utf-8-sig"),
        ("金額,メモ\n1,あ\n".encode("cp932"), "cp932"),
    ],
)
def test_encoding_detection(tmp_path: Path, data: bytes, encoding: str) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes(data)
    assert _read(path) == (encoding, ["金額", "メモ"], [(2, {"金額": "1", "メモ": "あ"})])


def test_other_encodings_fall_back_to_detection(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    lines = "nom,ville\n" + "Hélène,Besançon\nFrançois,Orléans\nZoé,Nîmes\n" * 3
    path.write_bytes(lines.encode("latin-1"))
    encoding, _, rows = _read(path)
    assert encoding not in ("utf-8", "utf-8-sig", "cp932")
    assert rows[0][1]["ville"] == "Besançon"


def test_mskanji_corpus_is_cp932() -> None:
    encoding, columns, rows = _read(CORPUS / "markitdown" / "test_mskanji.csv")
    assert (encoding, columns) == ("cp932", ["名前", "年齢", "住所"])
    assert rows[2] == (4, {"名前": "髙橋淳", "年齢": "35", "住所": "名古屋"})


def test_csv_rows_blank_lines_ragged_rows_and_quoted_newlines(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text('a,b\n1,2\n\n3\n4,5,6\n"x\ny",7\n', encoding="utf-8")
    assert _read(path)[2] == [
        (2, {"a": "1", "b": "2"}),
        (4, {"a": "3", "b": ""}),
        (5, {"a": "4", "b": "5"}),
        (6, {"a": "x\ny", "b": "7"}),
    ]


def test_row_numbers_continue_across_chunks(tmp_path: Path) -> None:
    path = tmp_path / "d.tsv"
    path.write_text(
        "n\tm\n" + "".join(f"{i}\t{i}\n" for i in range(CHUNK_ROWS + 5)), encoding="utf-8"
    )
    rows = _read(path)[2]
    assert (len(rows), rows[-1]) == (
        CHUNK_ROWS + 5,
        (CHUNK_ROWS + 6, {"n": f"{CHUNK_ROWS + 4}", "m": f"{CHUNK_ROWS + 4}"}),
    )


def test_duplicate_header_and_empty_file(tmp_path: Path) -> None:
    dup = tmp_path / "dup.csv"
    dup.write_text("a,a\n1,2\n", encoding="utf-8")
    with pytest.raises(TableReadError, match="the column 'a' appears twice"):
        _read(dup)
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(TableReadError, match="no header row"):
        _read(empty)


def test_forced_encoding_that_does_not_fit(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes("a\n金\n".encode("cp932"))
    with pytest.raises(TableReadError, match=r"d\.csv: 'utf-8' codec can't decode"):
        _read(path, encoding="utf-8")


def test_xlsx_values_as_text_and_sheet_row_numbers(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = active_sheet(book)
    sheet.title = "data"
    sheet.append(["day", "amount", "rate", "ok", "empty"])
    sheet.append([datetime(2026, 4, 1), 8800, 0.1, True, None])
    sheet.append([None, None, None, None, None])
    sheet.append([date(2026, 4, 2), 1.5, 2.0, False, "x"])
    path = tmp_path / "b.xlsx"
    book.save(path)
    with open_table(path) as table:
        assert (table.sheet, table.columns) == ("data", ["day", "amount", "rate", "ok", "empty"])
        assert list(table.rows) == [
            (2, {"day": "2026-04-01", "amount": "8800", "rate": "0.1", "ok": "true", "empty": ""}),
            (4, {"day": "2026-04-02", "amount": "1.5", "rate": "2", "ok": "false", "empty": "x"}),
        ]


def test_json_array_wrapped_array_and_json_lines(tmp_path: Path) -> None:
    array = tmp_path / "a.json"
    array.write_text(json.dumps([{"a": 1, "b": "x"}, {"a": 2.5, "c": None}]), encoding="utf-8")
    assert _read(array) == (
        "utf-8",
        ["a", "b", "c"],
        [(1, {"a": "1", "b": "x", "c": ""}), (2, {"a": "2.5", "b": "", "c": ""})],
    )
    wrapped = tmp_path / "w.json"
    wrapped.write_text(json.dumps({"rows": [{"a": True}]}), encoding="utf-8")
    assert _read(wrapped)[2] == [(1, {"a": "true"})]
    lines = tmp_path / "l.jsonl"
    lines.write_text('{"a": 1}\n\n{"b": [1, 2]}\n', encoding="utf-8")
    assert _read(lines)[2] == [(1, {"a": "1", "b": ""}), (3, {"a": "", "b": "[1, 2]"})]
    broken = tmp_path / "bad.jsonl"
    broken.write_text('{"a": 1}\n[1]\n', encoding="utf-8")
    with pytest.raises(TableReadError, match="line 2 is not an object"):
        _read(broken)


def test_markdown_table_uses_file_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text(
        "# Expenses\n\n| 金額 | メモ |\n|---:|:---|\n| 8000 | a \\| b |\n| 5000 |\n\nafter\n",
        encoding="utf-8",
    )
    assert _read(path)[1:] == (
        ["金額", "メモ"],
        [(5, {"金額": "8000", "メモ": "a | b"}), (6, {"金額": "5000", "メモ": ""})],
    )
    plain = tmp_path / "none.md"
    plain.write_text("no table here\n", encoding="utf-8")
    with pytest.raises(TableReadError, match="no Markdown table found"):
        _read(plain)


def test_split_markdown_row() -> None:
    assert split_markdown_row("| a | b \\| c |  ") == ["a", "b | c"]


def test_unsupported_and_missing(tmp_path: Path) -> None:
    with pytest.raises(TableReadError, match="no such file"):
        _read(tmp_path / "x.csv")
    odd = tmp_path / "x.doc"
    odd.write_bytes(b"")
    with pytest.raises(TableReadError, match=r"unsupported file type '\.doc'"):
        _read(odd)
