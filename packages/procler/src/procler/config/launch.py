"""How a `command:` string is launched, so that the pid we watch is the program's.

Three shapes, from the most direct:
- no shell syntax at all: split with shlex and exec'd directly (no shell);
- one simple command using shell features (variables, redirections, globs, quotes):
  `/bin/sh -c 'exec COMMAND'`, so the program replaces the shell;
- a pipeline, a list (`;`, `&&`, `&`), a compound command or a shell builtin: the shell
  stays, and status reports the program it runs (`shell: true`).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

SHELL = "/bin/sh"
# Characters that mean something to sh beyond splitting words and quoting.
SHELL_SYNTAX = frozenset("$`\\|&;<>()*?[]{}~#!\n")
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
# Words that only the shell can run: keywords and builtins with no program of that name.
SHELL_WORDS = frozenset(
    [
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "case",
        "esac",
        "for",
        "while",
        "until",
        "do",
        "done",
        "{",
        "}",
        "!",
        "[[",
        "function",
        "select",
        "time",
        "cd",
        "export",
        ".",
        "source",
        "set",
        "unset",
        "eval",
        "trap",
        "ulimit",
        "umask",
        "wait",
        "read",
        "shift",
        "alias",
        "readonly",
        "local",
        "return",
        "exit",
        "break",
        "continue",
    ]
)
REDIRECTION_CHARS = frozenset("<>&")


@dataclass(frozen=True)
class Launch:
    argv: tuple[str, ...]
    keeps_shell: bool  # a shell stays the group's leader; the program is its child


def _words(command: str) -> list[str] | None:
    """Shell-like tokens with control operators as their own tokens; None if unparseable."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        return None


def _is_control(token: str) -> bool:
    """`|`, `;`, `&`, `&&`, `(`... (a run of operator characters that is not a redirection)."""
    if not token or any(c not in "();<>|&" for c in token):
        return False
    return not (set(token) <= REDIRECTION_CHARS and ("<" in token or ">" in token))


def _simple_words(command: str) -> list[str] | None:
    """The words of one simple command; None for a list, pipeline or compound command."""
    if "\n" in command:
        return None
    words = _words(command)
    if not words or any(map(_is_control, words)):
        return None
    return words


def plan(command: str) -> Launch:
    """The argv that runs command with the program as the process we watch."""
    words = _simple_words(command)
    lead = 0  # leading VAR=value words
    while words is not None and lead < len(words) and ASSIGNMENT.match(words[lead]):
        lead += 1
    if words is None or lead == len(words) or words[lead] in SHELL_WORDS:
        return Launch((SHELL, "-c", command), True)
    plain = not SHELL_SYNTAX & set(command)
    if words[lead] == "exec":
        return Launch((SHELL, "-c", command), False)
    if lead == 0:
        return (
            Launch(tuple(words), False)
            if plain
            else Launch((SHELL, "-c", f"exec {command}"), False)
        )
    if plain:  # VAR=value prog: the assignments reach the exec'd program's environment
        return Launch(
            (SHELL, "-c", f"{shlex.join(words[:lead])} exec {shlex.join(words[lead:])}"), False
        )
    return Launch((SHELL, "-c", command), True)
