"""The `procler` console entry: a running supervisor answers its own commands from argv.

Most commands an agent sends (status, start, wait ...) are answered by the project's
supervisor, and loading the declarations and the parser would cost more than the round
trip. So this entry first offers the raw argv to a running supervisor, which parses it
with the same declarations and answers when the command is one of its own. Anything
else (no supervisor yet, a command that runs here, --help, a usage error) runs the full
CLI, `procler.cli.main`, which would have given the same answer the slower way.
Only the commands a supervisor answers are offered: a command that runs in the CLI
(logs, list, config ...) never waits on a supervisor, so a hung one cannot hold it up.

The private route: POST /v1/argv, body = cwd, config path and argv joined by NUL bytes
(none can contain one). An answer comes as 200 with its headers at once, including
`X-Reply-Within`, then a body of the exit code, a newline and the envelope. Any other
reply declines (204 from a supervisor that leaves the command to the CLI, 400 from an
older one without this route). The framing is in procler.wire.

`procler capabilities` (alone) is printed from CAPABILITIES, the answer generated from the
declarations at build time (`make docs`; a test fails when it differs from what the full
CLI prints), so an agent's first call does not build a 120 KB document to print it.
"""

import os
import sys

from procler import project

# The commands a running supervisor answers from argv: those declared with the FORWARD
# or IF_RUNNING handler (tests/test_cli.py checks this set against the declarations).
ANSWERED = frozenset(
    {
        "start",
        "stop",
        "restart",
        "status",
        "wait",
        "up",
        "down",
        "group start",
        "group stop",
        "group status",
        "group list",
        "reload",
        "dashboard",
        "exec",
        "why",
        "send",
        "history",
        "ci",
        "scale",
        "namespace start",
        "namespace stop",
        "namespace restart",
        "recipe list",
        "recipe show",
        "recipe run",
        "recipe resume",
        "recipe cancel",
        "recipe runs",
        "recipe status",
        "snippet list",
        "snippet show",
        "snippet run",
        "schedule list",
        "schedule run-now",
        "schedule pause",
        "schedule resume",
    }
)


# `procler capabilities`' answer, one envelope line (see agentcli.main.capabilities_answer).
CAPABILITIES = os.path.join(os.path.dirname(__file__), "declarations", "capabilities.json")


def capabilities(argv: "list[str]") -> "int | None":
    """0 once the generated capabilities answer is printed, or None: run the full CLI (any
    other argv, or no file, as in a tree that never ran `make docs`)."""
    if argv != ["capabilities"]:
        return None
    try:
        with open(CAPABILITIES, encoding="utf-8") as answer:
            text = answer.read()
    except OSError:
        return None
    from agentcli.envelope import emit_text

    emit_text(text)  # indented at a terminal, as the full CLI's emit does
    return 0


def names_answered(argv: "list[str]") -> "bool":
    """Whether argv names a command of ANSWERED (after the global options)."""
    i = 0
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] == "--config" else 1
    words = argv[i : i + 2]
    return " ".join(words) in ANSWERED or (bool(words) and words[0] in ANSWERED)


def explicit_config(argv: "list[str]") -> "list[str]":
    """--config's values as the parser reads them (it may be given more than once; options
    stop at `--`)."""
    found = []
    for i, tok in enumerate(argv):
        if tok == "--":
            break
        if tok == "--config" and i + 1 < len(argv):
            found.append(argv[i + 1])
        elif tok.startswith("--config="):
            found.append(tok[len("--config=") :])
    return found


def tables_asked() -> "bool":
    """Whether $PROCLER_FORMAT asks a person's terminal for tables: the full CLI then
    renders the commands that have one (a supervisor answers JSON only; an explicit
    --format table is seen by its parser, which leaves such a command to the CLI)."""
    return os.environ.get("PROCLER_FORMAT", "json") != "json" and sys.stdout.isatty()


def offer(argv: "list[str]") -> "int | None":
    """The exit code once the supervisor has answered, or None: run the full CLI."""
    if not names_answered(argv) or tables_asked():
        return None
    try:
        cwd = os.getcwd()
        config = project.find_config(cwd, explicit_config(argv))
        sock_path = project.socket_path(project.project_root(config))
    except Exception:  # noqa: BLE001 - the full CLI reports it properly
        return None
    if not os.path.exists(sock_path):
        return None  # no supervisor: the full CLI starts one if the command needs it
    from procler.wire import (
        ARGV_ROUTE,
        HEADER_WAIT,
        REPLY_WITHIN,
        NotRunning,
        Unanswered,
        argv_body,
        deadline,
        request,
        split_argv_reply,
    )

    body = argv_body(cwd, config, argv)
    try:
        status, headers, payload = request(
            sock_path, "POST", ARGV_ROUTE, body, HEADER_WAIT, deadline()
        )
    except Unanswered as exc:
        raise project.hung_supervisor(
            project.project_root(config), HEADER_WAIT, exc.taken
        ) from None
    except (NotRunning, OSError):
        return None  # gone, stale or not ours to reach: the full CLI sorts it out
    if status != 200 or REPLY_WITHIN not in headers:
        return None
    code, text = split_argv_reply(payload)
    from agentcli.envelope import emit_text  # imported only now: a declined offer needs none

    emit_text(text)
    return code


def with_namespaces(argv: "list[str]") -> "list[str]":
    """`up` without -n takes $PROCLER_NAMESPACES, as if written `up -n VALUE`."""
    chosen = os.environ.get("PROCLER_NAMESPACES")
    at = 0
    while at < len(argv) and argv[at].startswith("-"):
        at += 2 if argv[at] == "--config" else 1
    if not chosen or argv[at : at + 1] != ["up"]:
        return argv
    if any(a in ("-n", "--namespace") or a.startswith("--namespace=") for a in argv):
        return argv
    return [*argv[: at + 1], "--namespace", chosen, *argv[at + 1 :]]


def main() -> "None":
    """Console entry: the supervisor's answer if it has one, else the full CLI."""
    sys.argv[1:] = argv = with_namespaces(sys.argv[1:])
    try:
        code = capabilities(argv)
        if code is None:
            code = offer(argv)
    except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - mapped in one place
        from agentcli.main import conclude

        code = conclude("procler", exc, "--debug" in argv)
    if code is None:
        from procler.cli import main as full_cli

        full_cli()  # runs the command and leaves
    from agentcli.envelope import leave

    leave(code)
