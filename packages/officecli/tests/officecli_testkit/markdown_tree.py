"""Markdown as a CommonMark renderer reads it (markdown-it-py): the structure tests assert."""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

PARSER = MarkdownIt("commonmark").enable("table")


def _inline_text(token: Token) -> str:
    """Text of an inline token as displayed: soft breaks are spaces, hard breaks newlines."""
    out: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type == "softbreak":
            out.append(" ")
        elif child.type == "hardbreak":
            out.append("\n")
        elif child.type == "link_open":
            out.append("[")
        elif child.type == "link_close":
            out.append("]")
    return "".join(out)


def outline(markdown: str) -> list[tuple[Any, ...]]:
    """("h", level, text), ("li", depth, ordered, text), ("p", text), ("table", rows),
    ("img", alt) for a paragraph that is only pictures."""
    tokens = PARSER.parse(markdown)
    out: list[tuple[Any, ...]] = []
    lists: list[bool] = []  # ordered flag of each open list
    heading = 0
    in_item_text = False
    row: list[str] = []
    rows: list[list[str]] = []
    cell = False
    for token in tokens:
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            lists.append(kind == "ordered_list_open")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            in_item_text = True
        elif kind == "heading_open":
            heading = int(token.tag[1])
        elif kind == "table_open":
            rows = []
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close":
            rows.append(row)
        elif kind == "table_close":
            out.append(("table", rows))
        elif kind in ("th_open", "td_open"):
            cell = True
        elif kind == "inline":
            text = _inline_text(token)
            pictures = [c for c in token.children or [] if c.type == "image"]
            if pictures and not text.strip():  # a picture of its own
                out += [("img", picture.content) for picture in pictures]
            elif cell:
                row.append(text)
                cell = False
            elif heading:
                out.append(("h", heading, text))
                heading = 0
            elif lists and in_item_text:
                out.append(("li", len(lists) - 1, lists[-1], text))
                in_item_text = False
            else:
                out.append(("p", text))
    return out


def links(markdown: str) -> list[tuple[str, str]]:
    """(text, href) of every link."""
    found: list[tuple[str, str]] = []
    for token in PARSER.parse(markdown):
        children = token.children or []
        for i, child in enumerate(children):
            if child.type == "link_open":
                end = next(j for j in range(i, len(children)) if children[j].type == "link_close")
                text = "".join(c.content for c in children[i + 1 : end] if c.type == "text")
                found.append((text, str(child.attrs.get("href", ""))))
    return found
