"""The handlers of `procler export ...` and `procler import ...` (declared in
procler.declarations.stack_files): they run in the CLI process (no supervisor) and import the
export core only when they run."""

import os

from agentcli.commands import Command
from agentcli.errors import ConditionNotMet, InputError
from procler.project import CONFIG_DIR, CONFIG_FILE, project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from procler.export.fidelity import Conversion


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


def _read_input(path: "Path") -> "tuple[Path, str]":
    from agentcli.files import read_regular_text
    from procler.export.imported import MAX_IMPORT_BYTES

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
    kind = command.words[1]
    if kind in ("compose", "process-compose"):
        from procler.export.imported import with_override

        paths = [*with_override(Path(values["path"])), *map(Path, values.get("override") or [])]
    else:
        paths = [Path(values["path"])]
    for path in paths:
        check_config_output(output, path, merge=values["merge"])
    sources = [_read_input(path) for path in paths]
    source, text = sources[0]
    if kind == "procfile":
        from procler.export.from_procfile import import_procfile

        result = import_procfile(text, source, Path(project_root(str(output))), values["base_port"])
    elif kind == "compose":
        from procler.export.from_compose import import_compose

        result = import_compose(sources)
    elif kind == "process-compose":
        from procler.export.from_process_compose import import_process_compose

        result = import_process_compose(sources)
    else:
        from procler.export.from_procler03 import import_procler03

        result = import_procler03(source)
    content, written = write_config(result, output, dry_run=values["dry_run"])
    answer: dict[str, Any] = {
        "source": str(source),
        "sources": [str(path) for path, _ in sources],
        "config": str(output),
        "processes": list(result.processes),
        "written": written,
        "warnings": [w.as_dict() for w in result.warnings],
    }
    if values["dry_run"]:
        answer["content"] = content
    return answer
