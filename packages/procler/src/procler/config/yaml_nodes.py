"""Read YAML into a tree of positioned nodes, keeping every scalar's source text.

ruamel.yaml composes (it does not construct), so nothing is converted behind our back:
the schema decides what `on`, `010` or `12:30` mean, and every node keeps its line and
column. YAML 1.2 resolution tags what a plain scalar would be (int, bool, null, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from procler.config.findings import Findings

STR_TAG = "tag:yaml.org,2002:str"
NULL_TAG = "tag:yaml.org,2002:null"
MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass
class YNode:
    kind: Literal["map", "seq", "scalar"]
    line: int  # 1-based
    column: int  # 1-based
    tag: str = STR_TAG
    text: str = ""  # scalars: the source text, never converted
    plain: bool = True  # scalars: unquoted (so YAML implicit typing applied)
    pairs: list[tuple[YNode, YNode]] = field(default_factory=list)  # maps, in file order
    items: list[YNode] = field(default_factory=list)  # sequences

    @property
    def is_null(self) -> bool:
        return self.kind == "scalar" and self.plain and self.tag == NULL_TAG

    def describe(self) -> str:
        """What the node is, for messages: 'a mapping', 'a list', 'the value 010'."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        return "an empty value" if self.is_null else f"the value {self.text!r}"


def parse_yaml(text: str, findings: Findings) -> YNode | None:
    """The document's root node; None (with a finding) when it cannot be parsed."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        root = YAML(typ="rt", pure=True).compose(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
        what = " ".join(p for p in (exc.context, exc.problem) if p)
        findings.at(line, column, "", f"YAML syntax error: {what}", _syntax_hint(what))
        return None
    except YAMLError as exc:
        findings.at(0, 0, "", f"YAML error: {exc}", "fix the YAML syntax")
        return None
    if root is None:
        findings.at(
            1, 1, "", "the config file is empty", "start from `procler config init --force`"
        )
        return None
    try:
        return _convert(root, set())
    except _RecursiveAlias as exc:
        findings.at(exc.line, exc.column, "", "an alias refers to its own anchor", "")
        return None


def _syntax_hint(what: str) -> str:
    if "tab" in what:
        return "indent with spaces, YAML does not allow tabs"
    if "another document" in what:
        return "keep one YAML document in the file (remove the extra `---`)"
    return "check the indentation and quoting on this line and the one before"


class _RecursiveAlias(Exception):
    def __init__(self, line: int, column: int) -> None:
        super().__init__("recursive alias")
        self.line = line
        self.column = column


def _convert(node: Any, active: set[int]) -> YNode:
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    if id(node) in active:
        raise _RecursiveAlias(line, column)
    kind = type(node).__name__
    if kind == "ScalarNode":
        return YNode("scalar", line, column, str(node.tag), str(node.value), node.style is None)
    active.add(id(node))
    try:
        if kind == "SequenceNode":
            return YNode("seq", line, column, items=[_convert(n, active) for n in node.value])
        pairs = [(_convert(k, active), _convert(v, active)) for k, v in node.value]
    finally:
        active.discard(id(node))
    return YNode("map", line, column, pairs=_merge(pairs))


def _merge(pairs: list[tuple[YNode, YNode]]) -> list[tuple[YNode, YNode]]:
    """Expand `<<: *anchor` merge keys: merged entries come after explicit ones, which win."""
    own = [(k, v) for k, v in pairs if k.tag != MERGE_TAG]
    seen = {k.text for k, _ in own if k.kind == "scalar"}
    merged: list[tuple[YNode, YNode]] = []
    for key, value in pairs:
        if key.tag != MERGE_TAG:
            continue
        for source in value.items if value.kind == "seq" else [value]:
            for mk, mv in source.pairs:
                if mk.text not in seen:
                    seen.add(mk.text)
                    merged.append((mk, mv))
    return own + merged
