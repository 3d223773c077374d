"""The rules file (CSV or the first sheet of an xlsx) and each rule's matcher.

User patterns run on RE2 (linear time, no backtracking); a case-sensitive literal uses
str.find. A rule that can match the empty string is refused: it would insert text everywhere.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import re2

from agentcli.errors import InputError
from agentcli.parser import did_you_mean
from officecli.office_replace.columns import COLUMNS, RULES_FILE, values
from officecli.office_replace.errors import RulesError
from officecli.readers.paths import not_a_file
from officecli.readers.registry import open_table

Mode = Literal["literal", "wildcard", "regex"]
Scope = Literal["text", "sheetname", "filename", "all"]
MODES, CASES, SCOPES = values("mode"), values("case"), values("scope")
RULE_FORMATS = (".csv", ".tsv", ".txt", ".xlsx", ".xlsm")
MAX_RULES = 10_000
# characters XML 1.0 cannot carry: C0 controls but tab, LF and CR; surrogates; U+FFFE, U+FFFF
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
MAX_PATTERN_MEMORY = 64 << 20  # RE2's budget for one compiled pattern
_TEMPLATE_TOKEN = re.compile(r"\\(\d+)|\\g<([^>]*)>|\\\\")  # fixed pattern, on templates only


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    replacement: str


@dataclass
class Rule:
    id: str
    row: int
    find: str
    replace: str
    mode: Mode
    ignore_case: bool
    scope: Scope
    pattern: re2._Regexp | None  # None: a case-sensitive literal, found with str.find
    template: list[tuple[str, str]]  # a regex rule's replacement, parsed ([] otherwise)

    def applies_to(self, scope: str) -> bool:
        return self.scope in (scope, "all")

    def may_match(self, text: str) -> bool:
        """A cheap first test: False only when the rule cannot match."""
        return self.find in text if self.pattern is None else True

    def finditer(self, text: str) -> Iterator[Match]:
        """Non-overlapping, non-empty matches, left to right."""
        if self.pattern is None:
            at = text.find(self.find)
            while at >= 0:
                yield Match(at, at + len(self.find), self.replace)
                at = text.find(self.find, at + len(self.find))
            return
        for m in self.pattern.finditer(text):
            if m.end() > m.start():
                replacement = self.expand(m) if self.template else self.replace
                yield Match(m.start(), m.end(), replacement)

    def expand(self, m: re2._Match) -> str:
        return "".join(
            (m.group(int(v) if v.isdigit() else v) or "") if kind == "group" else v
            for kind, v in self.template
        )

    def sub(self, text: str) -> str:
        """The text with every match replaced."""
        return splice(text, self.finditer(text))


def splice(text: str, matches: Iterable[Match]) -> str:
    """The text with these matches (left to right, none overlapping) replaced."""
    out, last = [], 0
    for m in matches:
        out += [text[last : m.start], m.replacement]
        last = m.end
    return "".join(out) + text[last:] if out else text


def wildcard_regex(find: str) -> str:
    """`*` any run of characters (as few as possible, as Word does), `?` one; `~` escapes."""
    out, i = [], 0
    while i < len(find):
        ch = find[i]
        if ch == "~" and i + 1 < len(find) and find[i + 1] in "*?~":
            out.append(re2.escape(find[i + 1]))
            i += 2
            continue
        out.append("(?s:.*?)" if ch == "*" else "(?s:.)" if ch == "?" else re2.escape(ch))
        i += 1
    return "".join(out)


def compile_rule(row: int, cells: dict[str, str], where: str) -> Rule:
    def bad(message: str, suggestion: str | None = None) -> RulesError:
        return RulesError(f"{where} row {row}: {message}", suggestion=suggestion, data={"row": row})

    def choice(column: str, allowed: tuple[str, ...]) -> str:
        value = cells.get(column, "").strip().lower() or RULES_FILE.field(column).default
        if value not in allowed:
            hint = did_you_mean(value, allowed)
            raise bad(
                f"{column} {value!r} is not one of {', '.join(allowed)}"
                + (f"; {hint}" if hint else ""),
                (hint + " " if hint else "")
                + f"write one of {', '.join(allowed)} in the {column} column of row {row}",
            )
        return value

    find = cells["find"]
    if find == "":
        raise bad("find is empty", "write the text to find, or delete the row")
    mode: Mode = choice("mode", MODES)  # type: ignore[assignment]
    ignore_case = choice("case", CASES) == "ignore"
    scope: Scope = choice("scope", SCOPES)  # type: ignore[assignment]
    replace = cells.get("replace", "")
    control = NOT_XML.search(replace)
    if control:
        raise bad(
            f"replace holds U+{ord(control[0]):04X}, a character Office files cannot hold",
            "remove it (a control character other than tab or line break, or a lone surrogate)",
        )
    pattern, template = None, []
    if mode != "literal" or ignore_case:
        source = {"literal": re2.escape(find), "wildcard": wildcard_regex(find)}.get(mode, find)
        options = re2.Options()
        options.log_errors = False
        options.case_sensitive = not ignore_case
        options.max_mem = MAX_PATTERN_MEMORY
        try:
            pattern = re2.compile(source, options)
        except re2.error as exc:
            detail = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else exc
            raise bad(
                f"invalid {mode} pattern {find!r}: {detail}",
                "RE2 syntax: no look-around and no back-references",
            ) from None
        if pattern.search("") is not None:
            raise bad(f"the {mode} pattern {find!r} matches the empty string")
        template = parse_template(replace) if mode == "regex" else []
        missing = _missing_group(pattern, template)
        if missing:
            raise bad(f"the replacement refers to group {missing!r}, which the pattern lacks")
    rule_id = cells.get("id", "").strip() or f"R{row}"
    return Rule(rule_id, row, find, replace, mode, ignore_case, scope, pattern, template)


def parse_template(replace: str) -> list[tuple[str, str]]:
    """A regex replacement as pieces: ("text", literal) or ("group", number or name).

    `\\1` and `\\g<name>` refer to groups, `\\\\` is a backslash; anything else is literal.
    (RE2's own expand mangles non-ASCII replacement text, so we expand ourselves.)
    """
    pieces: list[tuple[str, str]] = []
    last = 0
    for m in _TEMPLATE_TOKEN.finditer(replace):
        pieces.append(("text", replace[last : m.start()]))
        number, name = m[1], m[2]
        pieces.append(("group", number or name) if (number or name) else ("text", "\\"))
        last = m.end()
    pieces.append(("text", replace[last:]))
    return [p for p in pieces if p != ("text", "")]


def _missing_group(pattern: re2._Regexp, pieces: list[tuple[str, str]]) -> str:
    """The first group reference the pattern does not have ('' when all exist)."""
    for kind, ref in pieces:
        if kind != "group":
            continue
        known = int(ref) <= pattern.groups if ref.isdigit() else ref in pattern.groupindex
        if not known:
            return ref
    return ""


def _check_header(name: str, columns: list[str]) -> None:
    unknown = [c for c in columns if c not in COLUMNS]
    required = [f.name for f in RULES_FILE.fields if f.required]
    absent = [c for c in required if c not in columns]
    if not unknown and not absent:
        return
    hints = [f"{c!r}: {h}" for c in unknown if (h := did_you_mean(c, COLUMNS))]
    what = (
        f"unknown column(s) {', '.join(unknown)}" if unknown else f"no {' or '.join(absent)} column"
    )
    if len(unknown) == len(columns) and not hints:
        what = "no column it names is a rules column"  # not quoted: maybe a secret's first line
    raise RulesError(
        f"{name} row 1: {what}" + (f" ({'; '.join(hints)})" if hints else ""),
        suggestion="the header row takes: " + ", ".join(COLUMNS),
        data={"row": 1},
    )


@dataclass(frozen=True)
class RuleFile:
    """The rules in file order, and the file's columns in its own order."""

    columns: tuple[str, ...]
    rules: list[Rule]

    def row_for(self, rule: Rule, scope: str) -> str:
        """A CSV row, in this file's column order, for `rule` with another scope (the id left
        blank); columns the file lacks are added after its own, with their names said."""
        cells = {
            "find": rule.find,
            "replace": rule.replace,
            "mode": "" if rule.mode == "literal" else rule.mode,
            "case": "ignore" if rule.ignore_case else "",
            "scope": scope,
        }
        lacking = [c for c in cells if cells[c] and c not in self.columns]
        line = io.StringIO()
        csv.writer(line, lineterminator="").writerow(
            [cells.get(c, "") for c in (*self.columns, *lacking)]
        )
        prefix = f"add the column(s) {', '.join(lacking)} to the header, then " if lacking else ""
        return f"{prefix}add: {line.getvalue()}"


def load_rules(path_arg: str) -> RuleFile:
    """Every rule in file order; any problem is exit 2 with the row number."""
    problem = not_a_file(path_arg)
    if problem:
        raise RulesError(
            f"rules file {path_arg!r}: {problem}",
            suggestion="give --rules the path of a rules file",
        )
    path = Path(path_arg)
    if path.suffix.lower() not in RULE_FORMATS:
        raise RulesError(
            f"{path.name}: rules must be a CSV or an xlsx file",
            suggestion="save the rules as .csv (UTF-8 or CP932) or .xlsx",
        )
    try:
        with open_table(path) as table:
            columns = [c.strip().lower() for c in table.columns]
            _check_header(path.name, columns)
            rules = []
            for row, record in table.records:
                cells = dict(zip(columns, record, strict=True))
                if not any(v.strip() for v in cells.values()):
                    continue
                rules.append(compile_rule(row, cells, path.name))
                if len(rules) > MAX_RULES:
                    raise RulesError(f"{path.name}: more than {MAX_RULES} rules")
    except RulesError:
        raise
    except InputError as exc:
        raise RulesError(exc.message, suggestion=exc.suggestion) from None
    if not rules:
        raise RulesError(f"{path.name}: no rules", suggestion="add a row under the header")
    seen: dict[str, int] = {}
    for rule in rules:
        if rule.id in seen:
            raise RulesError(
                f"{path.name} row {rule.row}: id {rule.id!r} already used on row {seen[rule.id]}",
                data={"row": rule.row},
            )
        seen[rule.id] = rule.row
    return RuleFile(tuple(columns), rules)
