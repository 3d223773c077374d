"""Generated data and rules that exercise every rule type, for the golden comparison.

The golden reports in `golden/` were written by the engine as it was before the
vectorised rewrite (`python -m officecli_testkit.fieldcheck_golden write DIR` from the tests
folder, in a checkout of that engine); the
test runs today's engine on the same generated files and compares every output format
byte for byte. The data holds the lenient forms business sheets use (¥1,000, 2026/4/1,
令和8年4月1日, full-width digits, blanks, spaces), wrong types, and faults for each rule,
and is longer than one chunk so that chunk boundaries are crossed.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROWS = 2300
COLUMNS = [
    "id",
    "date",
    "dept",
    "code",
    "qty",
    "price",
    "amount",
    "tax",
    "total",
    "note",
    "flag",
    "email",
    "category",
    "region",
    "start",
    "end",
    "memo",
    "score",
]
DEPTS = ["sales", "admin", "dev", "ops"]
CATEGORIES = ["travel", "meal", "book", "taxi"]

RULES = r"""version: 1
name: golden
fields:
  id: integer
  date: date
  qty: integer
  price: number
  flag: boolean
datasets:
  cats: categories.csv
  budget: budget.csv
masters:
  category: {dataset: cats, column: name}
  region: [east, west, north, 東]
rules:
  - {id: R01, type: required, fields: [id, dept]}
  - {id: R02, type: unique, fields: id}
  - {id: R03, type: enum, field: dept, values: [sales, admin, dev, ops], severity: warning}
  - id: R04
    type: pattern
    field: code
    regex: '[A-Z]{2}-\d{4}'
    message: '{field} {actual} at {location} (row {row}) of {dept}'
    suggestion: 'fix {code} in {dept}'
  - {id: R05, type: range, field: amount, min: 0}
  - {id: R06, type: compare, left: qty, op: ">=", value: 1}
  - {id: R07, type: sum_equals, total: total, parts: [amount, tax], tolerance: 0.5}
  - {id: R08, type: length, field: note, min: 2, max: 12, severity: info}
  - {id: R09, type: expression, expr: "amount == price * qty"}
  - {id: R10, type: range, field: date, min: "2020-01-01", max: "2030-12-31"}
  - {id: R11, type: type, field: score, value_type: number, severity: warning}
  - {id: R12, type: range, field: score, max: 100}
  - {id: R13, type: pattern, field: email, regex: '(?i)[a-z0-9.]+@example\.(com|jp)'}
  - {id: R14, type: reference, field: category, master: category}
  - {id: R15, type: reference, field: region, master: region, when: {field: dept, in: [sales, ops]}}
  - {id: R16, type: compare, left: start, op: "<=", right: end}
  - {id: R17, type: expression, expr: "days(start, end) <= 30", field: end}
  - {id: R18, type: unique, fields: [dept, code], severity: warning}
  - {id: R19, type: compare, left: memo, op: "!=", value: "x"}
  - {id: R20, type: compare, left: region, op: "==", value: "east", when: {all: [{field: qty, gt: 19}, {not: {field: flag, equals: true}}]}}
  - {id: R21, type: expression, assert: "round(tax) == round(amount * 0.1) or blank(tax)", severity: warning}
  - {id: R22, type: expression, expr: "len(note) < 12 and not contains(note, 'xx')"}
  - {id: R23, type: expression, expr: "matches(code, '[A-Z]{2}-[0-9]+') or code == ''"}
  - {id: R24, type: expression, expr: "qty // 7 + qty % 7 ** 1 >= 0 and abs(-price) >= 0"}
  - {id: R25, type: expression, expr: "year(date) >= 2026 and month(date) <= 12 and day(date) >= 1"}
  - {id: R26, type: expression, expr: "min(qty, 18) <= max(qty, 2) and number(memo) != 13"}
  - {id: R27, type: expression, expr: "date(end) != date('2026-07-01')"}
  - {id: R28, type: aggregate_equals, group_by: dept, function: sum, field: amount, dataset: budget, target: amount}
  - {id: R29, type: aggregate_equals, group_by: dept, function: count, dataset: budget, target: rows}
  - {id: R30, type: aggregate_equals, group_by: [dept], function: max, field: qty, dataset: budget, key: [dept], target: max_qty, tolerance: 0}
  - {id: R31, type: aggregate_equals, group_by: dept, function: min, field: price, dataset: budget, target: min_price}
  - {id: R32, type: range, field: price, min: 10, max: 4900, when: {field: dept, equals: dev}}
  - {id: R33, type: compare, left: total, op: ">", value: 0, when: {any: [{field: flag, present: true}, {field: qty, lte: 3}]}}
  - {id: R34, type: enum, field: qty, values: [1, 2, 3, 5, 8, 13, 21], when: {field: score, lt: 2}, severity: info}
  - {id: R35, type: expression, expr: "score / (qty - 4) < 1000"}
  - {id: R36, type: required, field: email, when: {field: date, gte: "2026-06-01"}}
  - {id: R37, type: compare, left: end, op: "==", right: start, when: {field: memo, equals: 7}}
"""

_DATES = [
    "2026-{m:02d}-{d:02d}",
    "2026/{m}/{d}",
    "令和8年{m}月{d}日",
    "R8.{m}.{d}",
    "2026{m:02d}{d:02d}",
]
_PRICES = ["{v}", "¥{v:,}", "{v:,}円", "{v}.0", " {v} ", "{v}e0"]


def _pick(rng: random.Random, rate: float, good: str, bad: list[str]) -> str:
    return rng.choice(bad) if rng.random() < rate else good


def _row(rng: random.Random, i: int) -> dict[str, str]:
    qty = rng.randint(1, 20)
    price = rng.randint(1, 500) * 10
    amount = qty * price
    tax = amount // 10
    total = amount + tax
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    shape = rng.choice(_DATES) if rng.random() < 0.2 else _DATES[0]
    dept = DEPTS[i % 4]
    row = {
        "id": _pick(rng, 0.01, str(i), ["", "12.5", f"ID{i}", str(i - 1), f" {i} ", "１２"]),
        "date": _pick(
            rng,
            0.02,
            shape.format(m=month, d=day),
            ["2026-02-30", "", "2019-12-31", "2031-01-01", "tomorrow", "2026-13-01"],
        ),
        "dept": _pick(rng, 0.02, dept, ["", "Sales", " dev ", "hr", "ops "]),
        "code": _pick(
            rng,
            0.03,
            f"{'ABCD'[i % 4]}{'XYZ'[i % 3]}-{i % 10000:04d}",
            ["bad", "", "ab-1234", "AB-12345", " AB-0001 ", "ＡＢ-1234", "AB-１２３４"],
        ),
        "qty": _pick(rng, 0.02, str(qty), ["0", "-3", "1.5", "", "１２", "1,000", "three"]),
        "price": _pick(
            rng,
            0.05,
            str(price),
            [p.format(v=price) for p in _PRICES] + ["(500)", "▲100", "10%", "inf", "nan", "1_000"],
        ),
        "amount": _pick(rng, 0.01, str(amount), ["-5", "", str(amount + 1), "abc"]),
        "tax": _pick(rng, 0.02, str(tax), ["", str(tax + 3), str(tax + 0.25)]),
        "total": _pick(rng, 0.02, str(total), [str(total + 1), str(total + 0.4), "", "x"]),
        "note": _pick(
            rng,
            0.03,
            f"note {i % 97}",
            ["", "n", "a long note text here", "経費精算の備考欄です", "xx yy"],
        ),
        "flag": _pick(
            rng,
            0.03,
            "true" if i % 3 else "false",
            ["yes", "はい", "○", "×", "maybe", "", " TRUE "],
        ),
        "email": _pick(
            rng, 0.03, f"user{i}@example.com", ["", "USER@EXAMPLE.JP", "bad@", "a@example.org"]
        ),
        "category": _pick(rng, 0.03, CATEGORIES[i % 4], ["", "food", " meal ", "Travel"]),
        "region": _pick(rng, 0.05, ["east", "west", "north", "東"][i % 4], ["", "south", "west "]),
        "start": f"2026-04-{1 + i % 20:02d}",
        "end": _pick(
            rng, 0.04, f"2026-05-{1 + i % 20:02d}", ["2026-03-01", "", "2026-05-05", "2026/07/01"]
        ),
        "memo": _pick(rng, 0.04, "", ["x", "7", "13", " x ", "13.0"]),
        "score": _pick(rng, 0.04, str(rng.randint(0, 90)), ["", "101", "abc", "5", "1e2", "９９"]),
    }
    return row


def _csv_text(columns: list[str], rows: list[dict[str, str]], delimiter: str = ",") -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n", delimiter=delimiter)
    writer.writerow(columns)
    writer.writerows([[r[c] for c in columns] for r in rows])
    return buf.getvalue()


def write_inputs(folder: Path) -> None:
    """data.csv, categories.csv, budget.csv and rules.yaml in `folder`."""
    rng = random.Random(34_35)
    rows = [_row(rng, i) for i in range(1, ROWS + 1)]
    (folder / "data.csv").write_text(_csv_text(COLUMNS, rows), encoding="utf-8")
    # The same rows without a quote (no cell holds a tab): a file the vectorised engine reads.
    (folder / "data.tsv").write_text(_csv_text(COLUMNS, rows, "\t"), encoding="utf-8")
    cats = [{"name": c} for c in CATEGORIES]
    (folder / "categories.csv").write_text(_csv_text(["name"], cats), encoding="utf-8")
    budget = [
        {"dept": "sales", "amount": "1000", "rows": "575", "max_qty": "20", "min_price": "10"},
        {"dept": "admin", "amount": "", "rows": "574", "max_qty": "19", "min_price": "10"},
        {"dept": "dev", "amount": "5", "rows": "575", "max_qty": "20", "min_price": "100"},
        {"dept": "legal", "amount": "0", "rows": "0", "max_qty": "0", "min_price": "0"},
    ]
    columns = ["dept", "amount", "rows", "max_qty", "min_price"]
    (folder / "budget.csv").write_text(_csv_text(columns, budget), encoding="utf-8")
    (folder / "rules.yaml").write_text(RULES, encoding="utf-8")


FORMATS = {
    "json": "report.json",
    "markdown": "report.md",
    "html": "report.html",
    "csv": "report.csv",
}


def reports(folder: Path) -> dict[str, str]:
    """Run `fieldcheck validate data.csv -r rules.yaml -f FORMAT` in `folder` for each format."""
    import subprocess

    out = {}
    for fmt in FORMATS:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "from officecli.fieldcheck.cli import main; main()",
                "validate",
                "data.csv",
                "-r",
                "rules.yaml",
                "-f",
                fmt,
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=300,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        out[fmt] = done.stdout
    return out


if __name__ == "__main__" and sys.argv[1:2] == ["write"]:
    import tempfile

    target = Path(sys.argv[2])
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        write_inputs(Path(tmp))
        for fmt, text in reports(Path(tmp)).items():
            (target / FORMATS[fmt]).write_text(text, encoding="utf-8")
