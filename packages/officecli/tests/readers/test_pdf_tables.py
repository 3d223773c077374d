"""Borderless PDF tables from positioned lines: columns found, prose left alone."""

from __future__ import annotations

from officecli.readers.pdf.layout import Line
from officecli.readers.pdf.tables import borderless_tables


def line(top: float, *cells: tuple[float, str], size: float = 8.0) -> Line:
    """A line whose cells start at the given x; words 4 points wide per character."""
    words = []
    for x, text in cells:
        for word in text.split():
            words.append((x, x + 4 * len(word), word))
            x += 4 * len(word) + 2
    return Line(words, top, top + size, size)


def test_aligned_rows_become_a_table_with_a_wrapped_cell() -> None:
    lines = [
        line(100, (50, "Name"), (150, "Qty"), (250, "Price")),
        line(112, (50, "Red apple"), (150, "3"), (250, "$1.00")),
        line(121, (50, "(fresh)"), size=6.0),
        line(130, (50, "Pear"), (150, "10"), (250, "$2.50")),
        line(170, (50, "A closing sentence in the ordinary flow of text.")),
    ]
    tables, rest = borderless_tables(lines)
    assert tables == [
        (
            (50, 100, 270, 138.0),
            [
                ["Name", "Qty", "Price"],
                ["Red apple (fresh)", "3", "$1.00"],
                ["Pear", "10", "$2.50"],
            ],
        )
    ]
    assert [x.text for x in rest] == ["A closing sentence in the ordinary flow of text."]


def test_prose_and_two_column_text_stay_lines() -> None:
    lines = [
        line(100, (50, "Left column text"), (320, "right column text")),
        line(112, (50, "more left text"), (320, "more right text")),
        line(124, (50, "A single line of prose")),
    ]
    tables, rest = borderless_tables(lines)
    assert tables == []
    assert rest == lines


def test_a_lone_row_of_three_cells_is_not_a_table() -> None:
    lines = [line(100, (50, "Total"), (150, "48"), (250, "$12.00"))]
    assert borderless_tables(lines) == ([], lines)
