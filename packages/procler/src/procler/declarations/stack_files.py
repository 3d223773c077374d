"""`procler export compose|systemd|kubernetes` and `procler import procfile|compose|process-compose|procler03`:
the stack handed to another engine, or brought in from one. Their declarations; the
handlers run in the CLI process (procler.cli.stack_files)."""

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
    PermissionDenied,
    ProcessNotFound,
)

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
    Arg(
        "--output",
        "where to write: a folder (or, for compose, a file name)",
        short="-o",
        type="path",
    ),
    Arg("--strict", "any fidelity warning exits 1 and writes nothing", type="boolean"),
    Arg("--dry-run", "answer the files' content instead of writing them", type="boolean"),
)
IMPORT_OUTPUT = {
    "type": "object",
    "properties": {
        "source": {"type": "string"},
        "sources": {
            "type": "array",
            "items": {"type": "string"},
            "description": "every file read, in merge order (the file, its override beside "
            "it, each --override)",
        },
        "config": {"type": "string"},
        "processes": {"type": "array", "items": {"type": "string"}},
        "written": {"type": "boolean"},
        "content": {"type": "string", "description": "with --dry-run: the config's YAML"},
        "warnings": {"type": "array", "items": WARNING},
    },
}
OVERRIDE = Arg(
    "--override",
    "another file merged over it, in order (as -f given again to compose)",
    type="path",
    multiple=True,
)
IMPORT_ARGS = (
    Arg("path", "the file to import", required=True, type="path"),
    Arg(
        "--output",
        "the config to write (default: .procler/config.yaml here)",
        short="-o",
        type="path",
    ),
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
    PermissionDenied,
)
ERRORS = (
    ConfigNotFound,
    PermissionDenied,
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
        "a compose file's services as docker processes (its compose.override.yaml merged "
        "when beside it, as compose does); unsupported keys warned at file:line:column",
        HANDLERS + "import_file",
        args=(*IMPORT_ARGS, OVERRIDE),
        idempotent=False,
        examples=(
            "procler import compose compose.yaml --dry-run",
            "procler import compose compose.yaml --merge",
            "procler import compose compose.yaml --override compose.dev.yaml",
        ),
        errors=IMPORT_ERRORS,
        output=IMPORT_OUTPUT,
    ),
    Command(
        "import process-compose",
        "a process-compose file's processes (probes, shutdown, availability, disabled...; "
        "its process-compose.override.yaml merged when beside it); unsupported keys warned "
        "at file:line:column",
        HANDLERS + "import_file",
        args=(*IMPORT_ARGS, OVERRIDE),
        idempotent=False,
        examples=(
            "procler import process-compose process-compose.yaml --dry-run",
            "procler import process-compose process-compose.yaml --override dev.yaml",
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
