"""`procler export compose|systemd|kubernetes` and `procler import procfile|compose|procler03`:
the stack handed to another engine, or brought in from one. Declarations, then the handlers, which run in the
CLI process (no supervisor) and import the export core only when they run."""

import os

from agentcli.commands import Arg, Command
from agentcli.errors import (
    ConditionNotMet,
    FileTooLargeError,
    InputError,
    NotRegularFileError,
    OutputIsInputError,
)
from procler.errors import (
    ConfigExists,
    ConfigInvalid,
    ConfigNotFound,
    Conflict,
    GroupNotFound,
    ProcessNotFound,
)
from procler.project import CONFIG_DIR, CONFIG_FILE, project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from procler.export.fidelity import Conversion

HANDLERS = "procler.cli.stack_files:"
WARNING = {
    "type": "object",
    "description": "a field the target could not carry, or carries differently",
    "properties": {
        "process": {"type": "string"},
        "field": {"type": "string"},
        "message": {"type": "string"},
        "at": {"type": "string", "description": "imports: FILE:LINE:COLUMN in the source"},
    },
}
OUTPUT = {
    "type": "object",
    "properties": {
        "target": {"type": "string"},
        "processes": {"type": "array", "items": {"type": "string"}},
        "written": {"type": "array", "items": {"type": "string"}},
        "files": {
            "type": "object",
            "description": "with --dry-run: file name -> content (nothing written)",
        },
        "warnings": {"type": "array", "items": WARNING},
    },
}
SELECTION = (
    Arg("names", "processes to export (default: all of them)", multiple=True),
    Arg("--group", "export this group's processes"),
    Arg("--all", "export every process (the default when no name is given)", type="boolean"),
    Arg("--output", "where to write: a folder (or, for compose, a file name)", short="-o"),
    Arg("--strict", "any fidelity warning exits 1 and writes nothing", type="boolean"),
    Arg("--dry-run", "answer the files' content instead of writing them", type="boolean"),
)
IMPORT_OUTPUT = {
    "type": "object",
    "properties": {
        "source": {"type": "string"},
        "config": {"type": "string"},
        "processes": {"type": "array", "items": {"type": "string"}},
        "written": {"type": "boolean"},
        "content": {"type": "string", "description": "with --dry-run: the config's YAML"},
        "warnings": {"type": "array", "items": WARNING},
    },
}
IMPORT_ARGS = (
    Arg("path", "the file to import", required=True, type="path"),
    Arg("--output", "the config to write (default: .procler/config.yaml here)", short="-o"),
    Arg(
        "--merge",
        "add to the existing config; CONFLICT if a name is defined differently",
        type="boolean",
    ),
    Arg("--dry-run", "answer the resulting YAML instead of writing it", type="boolean"),
)
IMPORT_ERRORS = (
    InputError,
    NotRegularFileError,
    FileTooLargeError,
    ConfigExists,
    Conflict,
    OutputIsInputError,
)
ERRORS = (
    ConfigNotFound,
    ConfigInvalid,
    ProcessNotFound,
    GroupNotFound,
    ConditionNotMet,
    OutputIsInputError,
)

STACK_FILE_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "export compose",
        "write a compose file for the stack, with a warning for every field compose cannot carry",
        HANDLERS + "export",
        args=SELECTION,
        idempotent=True,
        examples=(
            "procler export compose --dry-run",
            "procler export compose api db -o deploy/compose.yaml",
            "procler export compose --group backend --strict -o deploy",
        ),
        errors=ERRORS,
        output=OUTPUT,
    ),
    Command(
        "export systemd",
        "write systemd units (user units; a .target per group, .timer per schedule)",
        HANDLERS + "export",
        args=(
            *SELECTION,
            Arg("--system", "system units (WantedBy=multi-user.target)", type="boolean"),
        ),
        examples=(
            "procler export systemd -o ~/.config/systemd/user",
            "procler export systemd --group backend --dry-run",
        ),
        errors=ERRORS,
        output=OUTPUT,
    ),
    Command(
        "export kubernetes",
        "write Kubernetes manifests: Deployment/Job/CronJob per process, Services, probes",
        HANDLERS + "export",
        args=SELECTION,
        examples=(
            "procler export kubernetes --dry-run",
            "procler export kubernetes --group backend -o deploy/k8s.yaml",
        ),
        errors=ERRORS,
        output=OUTPUT,
    ),
    Command(
        "import procfile",
        "a Procfile's processes as a config (.env beside it, PORT from a base in steps of 100; "
        "nested `foreman start -f` Procfiles become groups)",
        HANDLERS + "import_file",
        args=(
            *IMPORT_ARGS,
            Arg("--base-port", "PORT of the first process", type="integer", default=5000),
        ),
        idempotent=False,
        examples=("procler import procfile Procfile --dry-run", "procler import procfile Procfile"),
        errors=IMPORT_ERRORS,
        output=IMPORT_OUTPUT,
    ),
    Command(
        "import compose",
        "a compose file's services as docker processes; unsupported keys warned at line:column",
        HANDLERS + "import_file",
        args=IMPORT_ARGS,
        idempotent=False,
        examples=(
            "procler import compose compose.yaml --dry-run",
            "procler import compose compose.yaml --merge",
        ),
        errors=IMPORT_ERRORS,
        output=IMPORT_OUTPUT,
    ),
    Command(
        "import procler03",
        "a Procler 0.3 config rewritten in the canonical spelling (comments kept)",
        HANDLERS + "import_file",
        args=IMPORT_ARGS,
        idempotent=False,
        examples=("procler import procler03 old/.procler/config.yaml -o .procler/config.yaml",),
        errors=IMPORT_ERRORS,
        output=IMPORT_OUTPUT,
    ),
)


def _convert(values: "dict[str, Any]", target: "str") -> "tuple[Conversion, list[str], str]":
    from procler.cli.config import project
    from procler.export.fidelity import select

    config = project(values)
    names = tuple(values.get("names") or ())
    if values.get("all") and (names or values.get("group")):
        from agentcli.errors import UsageError

        raise UsageError(
            "--all excludes names and --group", suggestion="give names, --group or --all"
        )
    chosen = select(config, names, values.get("group"))
    if target == "compose":
        from procler.export.compose import export_compose

        result = export_compose(config, chosen)
    elif target == "kubernetes":
        from procler.export.kubernetes import export_kubernetes

        result = export_kubernetes(config, chosen)
    else:
        from procler.export.systemd import export_systemd

        result = export_systemd(config, chosen, user=not values.get("system"))
    return result, [s.name for s in chosen], str(config.config_path)


def _answer(values: "dict[str, Any]", target: "str") -> "dict[str, Any]":
    from procler.export.write import plan_outputs, write_outputs

    result, names, config_path = _convert(values, target)
    warnings = [w.as_dict() for w in result.warnings]
    answer: dict[str, Any] = {"target": target, "processes": names, "warnings": warnings}
    paths = plan_outputs(result, values.get("output") or ".", config_path)
    if values.get("strict") and warnings:
        raise ConditionNotMet(
            f"{len(warnings)} field(s) cannot be carried to {target}; nothing written",
            suggestion="change or drop each field in data.warnings, or export without --strict",
            data=answer,
        )
    if values.get("dry_run"):
        answer["files"] = {str(path): result.files[name] for name, path in paths.items()}
        return answer
    answer["written"] = write_outputs(result, paths)
    return answer


def export(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    """Every `export TARGET`: the target is the command's second word."""
    return _answer(values, command.words[1])


def _read_input(values: "dict[str, Any]") -> "tuple[Path, str]":
    from pathlib import Path

    from agentcli.files import read_regular_text
    from procler.export.imported import MAX_IMPORT_BYTES

    path = Path(values["path"])
    try:  # a pipe or a device: NotRegularFileError (exit 2), never a read that blocks
        return path, read_regular_text(path, MAX_IMPORT_BYTES, str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(
            f"cannot read {path}: {exc}", suggestion="give an existing text file"
        ) from None


def import_file(values: "dict[str, Any]", command: "Command") -> "dict[str, Any]":
    """Every `import SOURCE`: the source kind is the command's second word."""
    from pathlib import Path

    from procler.export.write import check_config_output, write_config

    output = Path(values.get("output") or os.path.join(CONFIG_DIR, CONFIG_FILE))
    check_config_output(output, Path(values["path"]), merge=values["merge"])
    source, text = _read_input(values)
    kind = command.words[1]
    if kind == "procfile":
        from procler.export.from_procfile import import_procfile

        result = import_procfile(text, source, Path(project_root(str(output))), values["base_port"])
    elif kind == "compose":
        from procler.export.from_compose import import_compose

        result = import_compose(text, source)
    else:
        from procler.export.from_procler03 import import_procler03

        result = import_procler03(source)
    content, written = write_config(result, output, dry_run=values["dry_run"])
    answer: dict[str, Any] = {
        "source": str(source),
        "config": str(output),
        "processes": list(result.processes),
        "written": written,
        "warnings": [w.as_dict() for w in result.warnings],
    }
    if values["dry_run"]:
        answer["content"] = content
    return answer
