"""Every suggestion office-replace gives names only options that exist and that change the
outcome: each error path is walked, the options its suggestions name are collected, and the
command is run again with each of them (the value a case gives) to see the outcome change.
(`--help` is left out: it is advice to read, not an option to retry with; so is the parser's
list of valid options after its did-you-mean.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docx
import pytest
from officecli_testkit.replace_helpers import Replace, docx_body, para, run, write_rules

from agentcli.commands import command_args
from officecli.office_replace.commands import APP

OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\w-])")
DECLARED = {flag for arg in command_args(APP.command("replace")) for flag in arg.flags}


@dataclass
class Case:
    """An error path: its arguments (from the temp folder), and the arguments each option
    its suggestions name is retried with."""

    argv: Callable[[Path], list[str]]
    fixes: dict[str, Callable[[Path, list[str]], list[str]]] = field(default_factory=dict)


def adding(*extra: str) -> Callable[[Path, list[str]], list[str]]:
    """A retry with these arguments added (a later value of an option wins); `{}` is the
    temp folder."""
    return lambda root, argv: [*argv, *(e.format(root) for e in extra)]


def setup(root: Path) -> None:
    (root / "in").mkdir()
    docx_body(root / "in" / "a.docx", para(run("Acme Corp")))
    document = docx.Document()
    document.add_comment(document.add_paragraph("text").runs, text="ask Acme Corp")
    document.save(str(root / "in" / "c.docx"))
    (root / "in" / "broken.docx").write_bytes(b"PK\x03\x04 not a zip")
    write_rules(root / "r.csv", [["find", "replace"], ["Acme Corp", "Globex"]])
    write_rules(root / "chain.csv", [["find", "replace"], *[["a", "aa"]] * 14])
    write_rules(root / "bad.csv", [["find", "replace", "scope"], ["a", "b", "sheetnmae"]])
    (root / "one.docx").write_bytes((root / "in" / "a.docx").read_bytes())
    document = docx.Document()
    document.add_paragraph("a")
    document.save(str(root / "chain.docx"))
    (root / "taken").mkdir()
    (root / "taken" / "a.docx").write_bytes(b"there already")


def a_docx(r: Path) -> list[str]:
    return [str(r / "in" / "a.docx"), "--rules", str(r / "r.csv")]


CASES = {
    "no output folder": Case(
        a_docx,
        {"-d": adding("-d", "{}/out"), "--dry-run": adding("--dry-run")},
    ),
    "output folder inside the input folder": Case(
        lambda r: ["-r", str(r / "in"), "--rules", str(r / "r.csv"), "-d", str(r / "in" / "o")],
        {"-d": adding("-d", "{}/out")},
    ),
    "outputs exist": Case(
        lambda r: [*a_docx(r), "-d", str(r / "taken")], {"--force": adding("--force")}
    ),
    "a folder without -r": Case(
        lambda r: [str(r / "in"), "--rules", str(r / "r.csv"), "--dry-run"],
        {"-r": adding("-r")},
    ),
    "no rules file": Case(
        lambda r: [str(r / "one.docx"), "--rules", str(r / "none.csv"), "--dry-run"],
        {"--rules": adding("--rules", "{}/r.csv")},
    ),
    "a misspelled value": Case(
        lambda r: [str(r / "one.docx"), "--rules", str(r / "bad.csv"), "--dry-run"]
    ),
    "rules that feed each other": Case(
        lambda r: [str(r / "chain.docx"), "--rules", str(r / "chain.csv"), "--dry-run"],
        {"--max-growth": adding("--max-growth", "64")},
    ),
    "a bad --max-growth": Case(
        lambda r: [*a_docx(r), "--dry-run", "--max-growth", "0"],
        {"--max-growth": adding("--max-growth", "16")},
    ),
    "an unknown story": Case(
        lambda r: [*a_docx(r), "--dry-run", "--stories", "body,slides"],
        {"--stories": adding("--stories", "body")},
    ),
    "a file that cannot be read": Case(
        lambda r: ["-r", str(r / "in"), "--rules", str(r / "r.csv"), "-d", str(r / "out")],
        {
            "--continue-on-error": adding("--continue-on-error"),
            "--stories": adding("--stories", "body,comments"),
        },
    ),
    "text in a story left out": Case(
        lambda r: [str(r / "in" / "c.docx"), "--rules", str(r / "r.csv"), "--dry-run"],
        {"--stories": adding("--stories", "body,comments")},
    ),
    "an unknown option": Case(
        lambda r: [*a_docx(r), "--dry-run", "--frce"],
        {"--force": lambda root, argv: ["--force" if a == "--frce" else a for a in argv]},
    ),
    "no such input": Case(
        lambda r: [str(r / "nothing.docx"), "--rules", str(r / "r.csv"), "--dry-run"]
    ),
}


def outcome(code: int, answer: dict[str, Any]) -> tuple[Any, ...]:
    """What a retry must change: the exit code, the error, or the warnings and errors."""
    serious = [
        (f["rule_id"], f["location"]) for f in answer.get("findings", []) if f["severity"] != "info"
    ]
    return code, answer.get("error_code"), serious


def suggestions(answer: dict[str, Any]) -> list[str]:
    found = (
        [answer["suggestion"].partition("valid options:")[0]] if answer.get("suggestion") else []
    )
    return found + [f["suggestion"] for f in answer.get("findings", []) if f["suggestion"]]


@pytest.mark.parametrize("name", list(CASES))
def test_each_suggested_option_exists_and_changes_the_outcome(
    replace: Replace, tmp_path: Path, name: str
) -> None:
    setup(tmp_path)
    case = CASES[name]
    code, answer = replace(*case.argv(tmp_path))
    assert code != 0 or answer["summary"]["warning"]
    named = {
        option
        for text in suggestions(answer)
        for option in OPTION.findall(text)
        if option != "--help"
    }
    assert named <= DECLARED
    assert named == set(case.fixes)
    for option in sorted(named):
        retried = replace(*case.fixes[option](tmp_path, case.argv(tmp_path)))
        assert outcome(*retried) != outcome(code, answer), option
