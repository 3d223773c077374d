"""The Markdown writer, and the counts measured back from the Markdown it wrote."""

from __future__ import annotations

import re

from officecli.readers.model import Block, Document, count_chars

SEPARATOR_ROW = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$")
HEADING = re.compile(r"^#{1,6} ")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.) ")
IMAGE = re.compile(r"!\[(?:\\.|[^\]\\])*\]\((?:<[^>]*>|[^)]+)\)")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
COMMENT = re.compile(r"<!--.*?-->", re.S)
TAG = re.compile(r"</?(?:br|ins)>")


def _cell(text: str) -> str:
    return (
        text.replace("\\|", "|").replace("|", "\\|").replace("\r", "").replace("\n", "<br>").strip()
    )


class ListLayout:
    """Indentation of nested list items: a child starts where its parent's text starts
    (the parent marker's width), which is what CommonMark needs to nest it; ordered items
    carry the source's number, or are numbered per level."""

    def __init__(self) -> None:
        self.widths: list[int] = []  # marker width of the latest item at each level
        self.numbers: list[int] = []

    def reset(self) -> None:
        self.widths, self.numbers = [], []

    def item(self, block: Block) -> str:
        level = min(block.level, len(self.widths))  # never deeper than one below the last item
        same_kind = level < len(self.widths) and (self.numbers[level] > 0) == block.ordered
        number = self.numbers[level] + 1 if same_kind and block.ordered else int(block.ordered)
        if block.ordered and block.number > 0:
            number = block.number  # a list the source continues after other text
        marker = f"{number}." if block.ordered else "-"
        indent = sum(self.widths[:level])
        self.widths[level:] = [len(marker) + 1]
        self.numbers[level:] = [number]
        pad = " " * (indent + len(marker) + 1)
        return " " * indent + f"{marker} " + _hard_breaks(block.text, pad)


def _hard_breaks(text: str, pad: str = "") -> str:
    """A line break kept inside a paragraph: a backslash at the end of the line."""
    return "\\\n".join(pad + line if i else line for i, line in enumerate(text.split("\n")))


def render_table(rows: list[list[str]]) -> str:
    width = max(len(r) for r in rows)
    padded = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(_cell(c) for c in padded[0]) + " |"]
    lines.append("|" + " --- |" * width)
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in padded[1:]]
    return "\n".join(lines)


def render_block(block: Block, assets_dir: str) -> str:
    if block.kind == "heading":
        return "#" * block.level + " " + block.text.replace("\n", " ")
    if block.kind == "table":
        return render_table(block.rows) if block.rows else ""
    if block.kind == "image":
        alt = " ".join(block.text.split())
        if block.asset:
            alt = alt.replace("[", "\\[").replace("]", "\\]")
            if block.asset.startswith("link:"):  # the source only links to the picture
                return f"![{alt}](<{block.asset[5:]}>)"
            return f"![{alt}]({assets_dir}/{block.asset})"
        return f"<!-- image not extracted: {alt.replace('--', '- -')} -->"
    if block.kind == "marker":
        return f"<!-- {block.text} -->"
    if block.kind == "quote":
        return "> " + _hard_breaks(block.text).replace("\n", "\n> ")
    return _hard_breaks(block.text)


def render(doc: Document, assets_dir: str, front_matter: str = "") -> str:
    """The document as Markdown; list items stay together, other blocks are separated."""
    out: list[str] = [front_matter] if front_matter else []
    previous = ""
    lists = ListLayout()
    for block in doc.blocks:
        if block.kind == "list_item":
            if previous != "list_item":
                lists.reset()
            text = lists.item(block)
        else:
            text = render_block(block, assets_dir)
        if not text:
            continue
        if out and not (block.kind == "list_item" and previous == "list_item"):
            out.append("")
        out.append(text)
        previous = block.kind
    return "\n".join(out).rstrip() + "\n"


class Counts:
    """What a piece of Markdown holds, or what a reader recognised."""

    def __init__(self) -> None:
        self.headings = 0
        self.list_items = 0
        self.tables = 0
        self.table_rows = 0
        self.images = 0
        self.characters = 0

    def as_text(self) -> str:
        return " ".join(f"{k}={v}" for k, v in vars(self).items())


def text_chars(markdown: str) -> int:
    """Content characters of Markdown text: syntax we add (markers, pipes, links) not counted."""
    text = COMMENT.sub("", markdown)
    text = IMAGE.sub("", text)
    text = LINK_TARGET.sub("", text)
    text = TAG.sub("", text)
    text = text.replace("\\|", "\x00").replace("|", "").replace("\\", "")
    text = text.replace("**", "").replace("~~", "")
    return count_chars(text.replace("\x00", "|"))


def recognised(doc: Document) -> Counts:
    """What the reader recognised, counted from the model."""
    counts = Counts()
    for block in doc.blocks:
        if block.kind == "heading":
            counts.headings += 1
            counts.characters += text_chars(block.text)
        elif block.kind == "list_item":
            counts.list_items += 1
            counts.characters += text_chars(block.text)
        elif block.kind == "table" and block.rows:
            counts.tables += 1
            counts.table_rows += len(block.rows)
            counts.characters += sum(text_chars(c) for row in block.rows for c in row)
        elif block.kind == "image":
            counts.images += 1
        elif block.kind in ("paragraph", "quote"):
            counts.characters += text_chars(block.text)
    return counts


def measured(markdown: str) -> Counts:
    """What the written Markdown contains, counted from its text alone."""
    counts = Counts()
    in_table = False
    body: list[str] = []
    lines = markdown.split("\n")
    if lines and lines[0] == "---":  # front matter is ours, not content
        end = lines.index("---", 1) if "---" in lines[1:] else 0
        lines = lines[end + 1 :]
    for line in lines:
        if line.startswith("|"):
            if SEPARATOR_ROW.match(line):
                continue
            counts.table_rows += 1
            if not in_table:
                counts.tables += 1
            in_table = True
        else:
            in_table = False
        if HEADING.match(line):
            counts.headings += 1
            line = line.lstrip("#")
        elif LIST_ITEM.match(line):
            counts.list_items += 1
            line = LIST_ITEM.sub("", line, count=1)
        elif line.startswith("> "):
            line = line[2:]
        counts.images += len(IMAGE.findall(line))
        body.append(line)
    counts.characters = text_chars("\n".join(body))
    return counts
