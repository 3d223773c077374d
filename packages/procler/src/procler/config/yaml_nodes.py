"""Read YAML into a tree of positioned nodes, keeping every scalar's source text.

ruamel.yaml composes (it does not construct), so nothing is converted behind our back:
the schema decides what `on`, `010` or `12:30` mean, and every node keeps its line and
column. YAML 1.2 resolution tags what a plain scalar would be (int, bool, null, ...).

Aliases are the one way a small file becomes a big tree (`a: &a [x, x]`, `b: &b [*a, *a]`,
... doubles at every line), so composing counts the nodes the tree will have once aliases
are expanded and stops at MAX_NODES, at the alias that crosses it; nesting stops at MAX_DEPTH.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any, Literal

from procler.config.findings import Findings

STR_TAG = "tag:yaml.org,2002:str"
NULL_TAG = "tag:yaml.org,2002:null"
MERGE_TAG = "tag:yaml.org,2002:merge"
MAX_NODES = 20_000  # after alias expansion; a config of a hundred processes has a few thousand
MAX_DEPTH = 50  # the schema itself nests six levels deep
_DIRECTIVE = re.compile(r"^%YAML[ \t]+(\S*)", re.MULTILINE)


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
    file: str = ""  # the file it was written in (a config may merge several)

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


def parse_yaml(
    text: str, findings: Findings, file: str = "", empty_ok: bool = False
) -> YNode | None:
    """The document's root node (each node knowing `file`); None (with a finding in that
    file) when it cannot be parsed, or is empty (without a finding when `empty_ok`: an
    override file may hold nothing)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, ReusedAnchorWarning, YAMLError
    from ruamel.yaml.reader import ReaderError

    if not _supported_version(text, findings, file):
        return None
    yaml = YAML(typ="rt", pure=True)
    yaml.Composer = _budgeted_composer()
    try:
        with warnings.catch_warnings():
            # YAML 1.2 lets an anchor be defined again (aliases then use the newer one);
            # ruamel warns on stderr, where nothing but Procler's own lines belongs.
            warnings.simplefilter("ignore", ReusedAnchorWarning)
            root = yaml.compose(text)
    except _TooLarge as exc:
        findings.at(exc.line, exc.column, "", exc.message, exc.suggestion, file)
        return None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        what = " ".join(p for p in (exc.context, exc.problem) if p)
        findings.at(line, column, "", f"YAML syntax error: {what}", _syntax_hint(what), file)
        return None
    except ReaderError as exc:  # a character YAML does not allow (NUL, most controls)
        line, column = position(text, exc.position)
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        findings.at(
            line,
            column,
            "",
            f"YAML error: the character U+{char:04X} is not allowed in YAML",
            "remove it, or write it as an escape inside a double-quoted string",
            file,
        )
        return None
    except YAMLError as exc:
        findings.at(1, 1, "", f"YAML error: {exc}", "fix the YAML syntax", file)
        return None
    if root is None and empty_ok:
        return None
    if root is None:
        findings.at(
            1, 1, "", "the config file is empty", "start from `procler config init --force`", file
        )
        return None
    try:
        return _convert(root, set(), file)
    except _RecursiveAlias as exc:
        findings.at(
            exc.line,
            exc.column,
            "",
            "an alias refers to its own anchor",
            "an anchor cannot contain its own alias: copy the values instead",
            file,
        )
        return None


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset in text."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _supported_version(text: str, findings: Findings, file: str) -> bool:
    """False (with a finding) for a `%YAML` directive other than 1.1 or 1.2."""
    for match in _DIRECTIVE.finditer(text):
        if match.group(1) not in ("1.1", "1.2"):
            line = text.count("\n", 0, match.start()) + 1
            findings.at(
                line,
                1,
                "",
                f"unsupported YAML version {match.group(1)!r} in the %YAML directive",
                "remove the %YAML line (Procler reads YAML 1.2) or write %YAML 1.2",
                file,
            )
            return False
    return True


class _TooLarge(Exception):
    """The document nests too deep or expands past MAX_NODES (an alias bomb)."""

    def __init__(self, mark: Any, message: str, suggestion: str) -> None:
        super().__init__(message)
        self.line, self.column = mark.line + 1, mark.column + 1
        self.message, self.suggestion = message, suggestion


def _budgeted_composer() -> Any:
    """ruamel's composer, counting the expanded size of the tree and bounding its depth."""
    from ruamel.yaml.composer import Composer
    from ruamel.yaml.events import AliasEvent

    class BudgetedComposer(Composer):  # type: ignore[misc]
        def __init__(self, loader: Any = None) -> None:
            super().__init__(loader=loader)
            self.expanded = 0  # nodes of the tree so far, aliases expanded
            self.sizes: dict[int, int] = {}  # expanded size of each anchored node

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            if self.depth >= MAX_DEPTH:
                raise _TooLarge(
                    event.start_mark,
                    f"the document nests deeper than {MAX_DEPTH} levels",
                    "flatten the structure: Procler's config nests a few levels at most",
                )
            target = self.anchors.get(event.anchor) if isinstance(event, AliasEvent) else None
            self.expanded += 1 if target is None else _expanded_size(target, self.sizes, set())
            if self.expanded > MAX_NODES:
                raise _TooLarge(
                    event.start_mark,
                    f"aliases expand the document past {MAX_NODES} nodes",
                    "repeat fewer aliases (an alias of an alias multiplies the size)",
                )
            return super().compose_node(parent, index)

    return BudgetedComposer


def _expanded_size(node: Any, sizes: dict[int, int], active: set[int]) -> int:
    """Nodes in node's tree with every alias expanded (memoized: shared nodes count each time)."""
    known = sizes.get(id(node))
    if known is not None:
        return known
    if id(node) in active or not isinstance(node.value, list):
        return 1  # a scalar, or a recursive alias (refused later)
    active.add(id(node))
    total = 1
    for entry in node.value:
        for part in entry if isinstance(entry, tuple) else (entry,):
            total += _expanded_size(part, sizes, active)
    active.discard(id(node))
    sizes[id(node)] = total
    return total


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


def _convert(node: Any, active: set[int], file: str) -> YNode:
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    if id(node) in active:
        raise _RecursiveAlias(line, column)
    kind = type(node).__name__
    if kind == "ScalarNode":
        return YNode(
            "scalar", line, column, str(node.tag), str(node.value), node.style is None, file=file
        )
    active.add(id(node))
    try:
        if kind == "SequenceNode":
            items = [_convert(n, active, file) for n in node.value]
            return YNode("seq", line, column, items=items, file=file)
        pairs = [(_convert(k, active, file), _convert(v, active, file)) for k, v in node.value]
    finally:
        active.discard(id(node))
    return YNode("map", line, column, pairs=_merge(pairs), file=file)


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
