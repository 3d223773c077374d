"""Value specs for the config table: each checks one YAML node and returns a plain value.

Checks never stop at the first problem: a spec records a finding (with the node's line and
column and its YAML path) and returns INVALID, and the walk carries on with the siblings.
Defaults are not applied here: absent keys stay absent and the model's defaults apply (a
Struct's `about` only restates them, with each key's meaning, for the reference).

Each spec also gives an example of a value it accepts (`example()`: derived from its shape,
or the `sample` the table gives it), so a value of the wrong shape is answered with the
shape expected, as a line of YAML (`groups.backend: {processes: [db, api]}`), instead of
leaving the reader to look it up in the schema.
"""

from __future__ import annotations

import re
from typing import Any

from agentcli.parser import did_you_mean
from agentcli.values import parse_duration
from procler.config.findings import Findings, child, item
from procler.config.yaml_nodes import YNode
from procler.patterns import SYNTAX_HINT, PatternError, compile_pattern

INVALID: Any = object()  # a value that failed its check (a finding was recorded)

INT_TAG = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+")
_SEXAGESIMAL = re.compile(r"[-+]?[0-9]+(:[0-5]?[0-9])+(\.[0-9]*)?")
_YAML11_BOOLS = {"yes", "no", "on", "off", "y", "n"}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?", re.IGNORECASE)
_SIZE_UNITS = {"b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}
MAX_DIGITS = 18  # every count, port and size fits; a 5,000-digit number is not a config value


class Invalid(Exception):
    """A node's value is wrong: the message and how to fix it."""

    def __init__(self, message: str, suggestion: str) -> None:
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion


def pitfall_note(node: YNode) -> str:
    """Why an unquoted value may not mean what it looks like (YAML 1.1 vs 1.2)."""
    text = node.text
    if not node.plain:
        return ""
    if _SEXAGESIMAL.fullmatch(text):
        return f" (YAML 1.1 reads unquoted {text} as a base-60 number; Procler reads it as text)"
    if text.lower() in _YAML11_BOOLS:
        return f" ({text} is a boolean only in YAML 1.1; Procler reads YAML 1.2, where it is text)"
    return ""


_PLAIN = re.compile(r"[A-Za-z0-9_./-][A-Za-z0-9_ ./@*:-]*")  # no quotes needed


def flow(value: Any) -> str:
    """A value as one line of flow-style YAML (for suggestions)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    plain = _PLAIN.fullmatch(text) and not text.endswith((":", " ")) and ": " not in text
    return text if plain else '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shown(path: str, value: Any) -> str:
    """`path: value` as a suggestion shows it."""
    return f"{path}: {flow(value)}" if path else flow(value)


class Spec:
    """Checks a node at a path; records findings; returns the value or INVALID."""

    what = "a value"
    sample: Any = None  # the example shown for this value (None: derived from its shape)

    def example(self) -> Any:
        """A value this spec accepts, as plain data (for suggestions)."""
        return self.sample if self.sample is not None else self.derived_example()

    def derived_example(self) -> Any:
        return "VALUE"

    def check(self, node: YNode, path: str, findings: Findings) -> Any:
        findings.mark(path, node)
        try:
            return self.convert(node, path, findings)
        except Invalid as bad:
            findings.on(node, path, bad.message, bad.suggestion)
            return INVALID

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        raise NotImplementedError

    def expected(self, node: YNode, path: str) -> Invalid:
        return Invalid(
            f"expected {self.what}, got {node.describe()}{pitfall_note(node)}",
            f"write {self.what} here, e.g. {shown(path, self.example())}",
        )


class Scalar(Spec):
    """A scalar read from its source text, so `on`, `010` and `12:30` stay what was written."""

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        if node.kind != "scalar" or node.is_null:
            raise self.expected(node, path)
        return self.parse(node)

    def parse(self, node: YNode) -> Any:
        return node.text


class Str(Scalar):
    what = "a string"
    description = ""  # what the text must be, for the reference (when it has a form)

    def __init__(self, sample: str | None = None) -> None:
        self.sample = sample

    def derived_example(self) -> Any:
        return "TEXT"


class Matching(Scalar):
    """Text of a fixed form (our own pattern, bounded in length first)."""

    def __init__(
        self, pattern: str, longest: int, what: str, hint: str, sample: str | None = None
    ) -> None:
        self.pattern, self.longest, self.what, self.hint = re.compile(pattern), longest, what, hint
        self.sample = sample

    def parse(self, node: YNode) -> Any:
        if len(node.text) > self.longest or not self.pattern.fullmatch(node.text):
            raise Invalid(f"{node.text[:80]!r} is not {self.what}", self.hint)
        return node.text


class Regex(Scalar):
    what = "a regular expression"

    def derived_example(self) -> Any:
        return "ready"

    def parse(self, node: YNode) -> Any:
        try:
            compile_pattern(node.text)
        except PatternError as exc:
            raise Invalid(
                f"invalid regular expression {node.text!r}: {exc}",
                f"fix the pattern ({SYNTAX_HINT}); quote it in single quotes in YAML",
            ) from None
        return node.text


class Int(Scalar):
    what = "an integer"

    def __init__(
        self, low: int | None = None, high: int | None = None, sample: int | None = None
    ) -> None:
        self.low, self.high, self.sample = low, high, sample

    def derived_example(self) -> Any:
        return max(1, self.low or 0) if self.high is None or self.high >= 1 else self.low

    def parse(self, node: YNode) -> Any:
        text = node.text.replace("_", "")
        if node.plain and node.tag == INT_TAG and _LEADING_ZERO.fullmatch(text):
            raise Invalid(
                f"ambiguous integer {node.text}: YAML 1.1 reads a leading 0 as octal, YAML 1.2 "
                "does not",
                f"write the number without the leading zero (e.g. {text.lstrip('0') or '0'})",
            )
        if not _DECIMAL.fullmatch(text):
            raise self.expected(node, "")
        value = int(_bounded_digits(text))
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise Invalid(
                f"{value} is out of range", f"use a value from {self.low} to {self.high or 'up'}"
            )
        return value


def _bounded_digits(digits: str) -> str:
    if len(digits.lstrip("+-")) > MAX_DIGITS:
        raise Invalid(
            f"the number {digits[:MAX_DIGITS]}... has more than {MAX_DIGITS} digits",
            "write a smaller number",
        )
    return digits


class Bool(Scalar):
    what = "true or false"

    def derived_example(self) -> Any:
        return True

    def parse(self, node: YNode) -> Any:
        lowered = node.text.lower()
        if node.plain and lowered in ("true", "false"):
            return lowered == "true"
        raise Invalid(
            f"expected true or false, got {node.text!r}{pitfall_note(node)}", "write true or false"
        )


class Duration(Scalar):
    what = "a duration"

    def derived_example(self) -> Any:
        return "10s"

    def parse(self, node: YNode) -> Any:
        try:
            return parse_duration(node.text)
        except ValueError as exc:
            raise Invalid(
                f"{exc}{pitfall_note(node)}", "write e.g. 500ms, 10s, 5m, 1h30m"
            ) from None


class Size(Scalar):
    what = "a size"

    def __init__(self, low: int = 0, low_text: str = "0") -> None:
        self.low, self.low_text = low, low_text

    def derived_example(self) -> Any:
        return "10MB"

    def parse(self, node: YNode) -> Any:
        match = _SIZE.fullmatch(node.text.strip())
        if not match:
            raise Invalid(f"invalid size {node.text!r}", "write bytes, or e.g. 512KB, 10MB, 1GB")
        unit = (match.group(2) or "b")[0].lower()
        # 1.5G as Procler 0.3 reads it
        value = int(float(_bounded_digits(match.group(1))) * _SIZE_UNITS[unit])
        if value < self.low:
            raise Invalid(f"{node.text} is too small", f"use at least {self.low_text}")
        return value


class Enum(Scalar):
    def __init__(self, *choices: str) -> None:
        self.choices = choices
        self.what = "one of " + ", ".join(choices)

    def derived_example(self) -> Any:
        return self.choices[0]

    def parse(self, node: YNode) -> Any:
        if node.text in self.choices:
            return node.text
        hint = did_you_mean(node.text, self.choices)
        raise Invalid(
            f"{node.text!r} is not one of {', '.join(self.choices)}{pitfall_note(node)}",
            hint or f"write one of {', '.join(self.choices)}",
        )


class Signal(Enum):
    """A signal name, with or without its SIG prefix; answered without it (TERM)."""

    def parse(self, node: YNode) -> Any:
        return super().parse(
            YNode("scalar", node.line, node.column, text=node.text.removeprefix("SIG"))
        )


class ListOf(Spec):
    def __init__(
        self, each: Spec, *, scalar_ok: bool = False, sample: list[Any] | None = None
    ) -> None:
        self.each = each
        self.scalar_ok = scalar_ok  # a single scalar stands for a one-item list
        self.what = f"a list (each {each.what})"
        self.sample = sample

    def derived_example(self) -> Any:
        return [self.each.example()]

    def expected(self, node: YNode, path: str) -> Invalid:
        keyed = self._keyed(node)
        if keyed is None:
            return super().expected(node, path)
        return Invalid(
            f"expected {self.what}, got {node.describe()}",
            f"write {self.what} here, e.g. {shown(path, keyed)}",
        )

    def _keyed(self, node: YNode) -> list[Any] | None:
        """A mapping of names to entries (as docker compose writes depends_on) shown as the
        list this spec reads, each key its entry's `name`, so the suggestion is the user's
        own entries; None when entries have no name here, or a value is not a mapping of
        plain values (or empty)."""
        named = isinstance(self.each, Either) and "name" in self.each.mapping.fields
        if not named or node.kind != "map":
            return None
        entries: list[Any] = []
        for key, value in node.pairs:
            if key.kind != "scalar":
                return None
            if value.is_null:
                entries.append(key.text)
                continue
            if value.kind != "map" or any(k.kind != "scalar" or v.kind != "scalar" for k, v in value.pairs):  # fmt: skip
                return None
            entries.append({"name": key.text, **{k.text: v.text for k, v in value.pairs}})
        return entries

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        if self.scalar_ok and node.kind == "scalar" and not node.is_null:
            return [self.each.check(node, path, findings)]
        if node.kind != "seq":
            raise self.expected(node, path)
        return [self.each.check(n, item(path, i), findings) for i, n in enumerate(node.items)]


def _unique_pairs(node: YNode, path: str, findings: Findings) -> list[tuple[str, YNode, YNode]]:
    """A mapping's (key, key node, value node), reporting non-text and duplicate keys."""
    out: list[tuple[str, YNode, YNode]] = []
    first: dict[str, YNode] = {}
    for key, value in node.pairs:
        if key.kind != "scalar":
            findings.on(
                key,
                path,
                "a key must be plain text",
                "write the key as a name, not a list or a mapping",
            )
            continue
        if key.text in first:
            was = first[key.text]
            findings.on(
                key,
                child(path, key.text),
                f"duplicate key {key.text!r} (first defined at line {was.line})",
                "keep one definition under each name; rename or merge the other",
            )
            continue
        first[key.text] = key
        out.append((key.text, key, value))
    return out


class MapOf(Spec):
    """A mapping from names (checked against `key_pattern`) to values of one spec."""

    def __init__(
        self, each: Spec, key_pattern: str = "", key_hint: str = "", key_sample: str = "NAME"
    ) -> None:
        self.each = each
        self.key_pattern = re.compile(key_pattern) if key_pattern else None
        self.key_hint = key_hint
        self.key_sample = key_sample
        self.what = "a mapping"

    def derived_example(self) -> Any:
        return {self.key_sample: self.each.example()}

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        if node.is_null:
            return {}
        if node.kind != "map":
            raise self.expected(node, path)
        out: dict[str, Any] = {}
        for key, key_node, value in _unique_pairs(node, path, findings):
            sub = child(path, key)
            if self.key_pattern and not self.key_pattern.fullmatch(key):
                findings.on(key_node, sub, f"invalid name {key!r}", self.key_hint)
                continue
            out[key] = self.each.check(value, sub, findings)
        return out


class Struct(Spec):
    """A mapping with known keys: unknown ones get a did-you-mean, missing required ones a finding."""

    what = "a mapping"

    def __init__(
        self,
        fields: dict[str, Spec],
        *,
        required: tuple[str, ...] = (),
        exclusive: tuple[str, ...] = (),
        need_one: bool = False,
        sample: dict[str, Any] | None = None,
        about: dict[str, str | tuple[str, Any]] | None = None,
    ) -> None:
        self.sample = sample
        self.fields = fields
        # each key's meaning, with the value that applies when it is absent when there is
        # one: `(meaning, default)`; for the reference only (docs/config.md, the JSON
        # Schema's descriptions). The defaults themselves live in the model.
        self.about = about or {}
        self.required = required
        self.exclusive = exclusive  # at most one of these keys (exactly one with need_one)
        self.need_one = need_one

    def derived_example(self) -> Any:
        """Its required keys; else the first of the keys it needs one of; else its first."""
        keys = list(self.required) or list(self.exclusive[:1]) or list(self.fields)[:1]
        return {key: self.fields[key].example() for key in keys}

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        if node.kind != "map":
            raise self.expected(node, path)
        out: dict[str, Any] = {}
        for key, key_node, value in _unique_pairs(node, path, findings):
            sub = child(path, key)
            spec = self.fields.get(key)
            if spec is None:
                findings.on(key_node, sub, *self._unknown(key))
                continue
            out[key] = spec.check(value, sub, findings)
        for key in self.required:
            if key not in out:
                example = shown(key, self.fields[key].example())
                findings.on(node, path, f"missing required key {key!r}", f"add {example}")
        chosen = [k for k in self.exclusive if k in out]
        if len(chosen) > 1:
            findings.on(
                node,
                path,
                f"{' and '.join(chosen)} exclude each other",
                f"keep only one of {', '.join(self.exclusive)}",
            )
        elif self.need_one and not chosen:
            first = self.exclusive[0]
            findings.on(
                node,
                path,
                f"needs one of {', '.join(self.exclusive)}",
                f"add one of {', '.join(self.exclusive)}, e.g. "
                f"{shown(path, {first: self.fields[first].example()})}",
            )
        return out

    def _unknown(self, key: str) -> tuple[str, str]:
        hint = did_you_mean(key, list(self.fields))
        return f"unknown key {key!r}", hint or f"valid keys: {', '.join(self.fields)}"


class Either(Spec):
    """A scalar shorthand or a full mapping (e.g. `- db` or `- {name: db, condition: healthy}`)."""

    def __init__(self, scalar: Spec, mapping: Struct) -> None:
        self.scalar, self.mapping = scalar, mapping
        self.what = f"{scalar.what} or a mapping"

    def derived_example(self) -> Any:
        return self.mapping.example()  # the whole shape; the shorthand is in `what`

    def expected(self, node: YNode, path: str) -> Invalid:
        return Invalid(
            f"expected {self.what}, got {node.describe()}{pitfall_note(node)}",
            f"write {self.what} here, e.g. {shown(path, self.scalar.example())} or "
            f"{shown(path, self.mapping.example())}",
        )

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        if node.kind == "map":
            return self.mapping.convert(node, path, findings)
        if node.kind == "seq":
            raise self.expected(node, path)
        return self.scalar.convert(node, path, findings)


class ListOr(Spec):
    """A mapping, or a list standing for it (the list is the value of `key`), e.g. a group:
    `backend: [db, api]` is `backend: {processes: [db, api]}`."""

    def __init__(self, key: str, mapping: Struct) -> None:
        self.key, self.mapping = key, mapping
        self.listed = mapping.fields[key]
        self.what = f"{self.listed.what} or a mapping"

    def derived_example(self) -> Any:
        return self.mapping.example()

    def expected(self, node: YNode, path: str) -> Invalid:
        return Invalid(
            f"expected {self.what}, got {node.describe()}{pitfall_note(node)}",
            f"write {self.what} here, e.g. {shown(path, self.listed.example())} or "
            f"{shown(path, self.mapping.example())}",
        )

    def convert(self, node: YNode, path: str, findings: Findings) -> Any:
        if node.kind == "map":
            return self.mapping.convert(node, path, findings)
        if node.kind == "seq":
            # read as the mapping it stands for: later checks name its entries by that path
            return {self.key: self.listed.check(node, child(path, self.key), findings)}
        raise self.expected(node, path)
