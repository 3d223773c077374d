"""Filling a snippet's `@{arg}` placeholders: each value checked against its type and written
for the shell (strings quoted as one word, numbers and booleans validated and bare).
No dependencies beyond the config model."""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping

from procler.config.model import SnippetArg

# \@{ is a literal "@{"; @{name} or @{name:default} a placeholder (linear: no nesting).
PLACEHOLDER = re.compile(r"\\@\{|@\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}")
INTEGER = re.compile(r"[-+]?[0-9]+")
NUMBER = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")
BOOLEANS = {
    "true": "true",
    "yes": "true",
    "1": "true",
    "false": "false",
    "no": "false",
    "0": "false",
}


class ArgumentInvalid(ValueError):
    """A value that does not fit its argument; the message says which and why."""


def placeholders(command: str) -> dict[str, str | None]:
    """The placeholders a command holds, each with its inline default (None: none given)."""
    found: dict[str, str | None] = {}
    for match in PLACEHOLDER.finditer(command):
        if match.group(1) is not None:
            found.setdefault(match.group(1), match.group(2))
    return found


def arguments(command: str, declared: tuple[SnippetArg, ...]) -> dict[str, SnippetArg]:
    """Every argument: the declared ones, and an undeclared placeholder as a string
    (required unless it has an inline default)."""
    out = {arg.name: arg for arg in declared}
    for name, default in placeholders(command).items():
        if name not in out:
            out[name] = SnippetArg(name, default=default, required=default is None)
        elif out[name].default is None and default is not None:
            out[name] = SnippetArg(
                name, out[name].type, default, out[name].required, out[name].choices
            )
    return out


def shell_value(arg: SnippetArg, value: str) -> str:
    """The value as the shell must read it, or ArgumentInvalid."""
    if arg.choices and value not in arg.choices:
        raise ArgumentInvalid(f"{arg.name} must be one of {', '.join(arg.choices)}, not {value!r}")
    if arg.type == "string":
        return shlex.quote(value)
    if arg.type == "integer" and INTEGER.fullmatch(value):
        return value
    if arg.type == "number" and NUMBER.fullmatch(value) and math.isfinite(float(value)):
        return value
    if arg.type == "boolean" and value.lower() in BOOLEANS:
        return BOOLEANS[value.lower()]
    raise ArgumentInvalid(
        f"{arg.name} must be {'an' if arg.type == 'integer' else 'a'} {arg.type}, not {value!r}"
    )


def fill(command: str, declared: tuple[SnippetArg, ...], given: Mapping[str, str]) -> str:
    """The command with every placeholder replaced; ArgumentInvalid for an unknown, missing
    or ill-typed argument."""
    args = arguments(command, declared)
    unknown = sorted(set(given) - set(args))
    if unknown:
        known = ", ".join(sorted(args)) or "(none)"
        raise ArgumentInvalid(f"unknown argument {unknown[0]!r}; the snippet takes: {known}")
    values: dict[str, str] = {}
    for name, arg in args.items():
        value = given.get(name)
        if value is None and not arg.required:
            value = arg.default
        if value is None:
            raise ArgumentInvalid(f"argument {name} is required (--arg {name}=VALUE)")
        values[name] = shell_value(arg, value)

    def replace(match: re.Match[str]) -> str:
        return "@{" if match.group(1) is None else values[match.group(1)]

    return PLACEHOLDER.sub(replace, command)
