"""Where an export's files go: checked before anything is written (never over an input),
then each written atomically."""

from __future__ import annotations

from pathlib import Path

from agentcli.errors import UsageError
from agentcli.files import check_regular, read_regular_text
from agentcli.outputs import check_output_dir, check_output_file, refuse_inputs, write_text_atomic
from procler.errors import ConfigExists, PermissionDenied
from procler.export.fidelity import Conversion
from procler.export.imported import MAX_IMPORT_BYTES, Imported, merged_config, new_config

_FILE_SUFFIXES = (".yaml", ".yml", ".json")


def plan_outputs(result: Conversion, output: str, *inputs: str) -> dict[str, Path]:
    """File name -> the path it goes to. A single-file export may name the file itself."""
    target = Path(output).expanduser()
    single = len(result.files) == 1
    if single and target.suffix in _FILE_SUFFIXES and not target.is_dir():
        paths = {next(iter(result.files)): check_output_file(target, [Path(p) for p in inputs])}
    else:
        folder = check_output_dir(target)
        paths = {name: folder / name for name in result.files}
    refuse_inputs(paths.values(), [Path(p) for p in inputs])
    return paths


def write_outputs(result: Conversion, paths: dict[str, Path]) -> list[str]:
    """Write every file (its folder created if needed); the paths written, in order."""
    written = []
    for name, path in paths.items():
        _write(path, result.files[name])
        written.append(str(path))
    return written


def check_config_output(output: Path, source: Path, *, merge: bool) -> None:
    """Before any work: the output is not the source, and an existing config is only ever
    extended (--merge), never replaced."""
    refuse_inputs([output], [source])
    if merge:
        check_regular(output, f"-o {output}")  # it is read to merge into: never a pipe
    if output.exists() and not merge:
        raise ConfigExists(
            f"{output} already exists",
            suggestion="add --merge to add the imported processes to it, or -o another file",
        )


def write_config(result: Imported, output: Path, *, dry_run: bool) -> tuple[str, bool]:
    """The config text an import gives (merged into the existing one, checked beforehand by
    check_config_output), and whether it was written."""
    if output.exists():
        text = read_regular_text(output, MAX_IMPORT_BYTES, f"-o {output}")
        content = merged_config(text, result, output)
    else:
        content = new_config(result)
    if dry_run:
        return content, False
    _write(output, content)
    return content, True


def _write(path: Path, text: str) -> None:
    """One file written atomically (its folder made if needed); a folder this user may not
    write is PERMISSION_DENIED, and any other refusal (a full disk) a usage error, exit 2
    either way with nothing half-written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
    except PermissionError:
        raise PermissionDenied(
            f"cannot write {path}: permission denied",
            suggestion="write it into a folder of yours with -o, or run as its owner",
        ) from None
    except OSError as exc:
        raise UsageError(
            f"cannot write {path}: {exc.strerror}; nothing was written",
            suggestion="free some space, or choose another place with -o",
        ) from None
