"""Where an export's files go: checked before anything is written (never over an input),
then each written atomically."""

from __future__ import annotations

from pathlib import Path

from agentcli.outputs import check_output_dir, check_output_file, refuse_inputs, write_text_atomic
from procler.export.fidelity import Conversion

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
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, result.files[name])
        written.append(str(path))
    return written
