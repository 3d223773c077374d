"""Turn a checked `watch:` value into a WatchSpec: globs substituted and checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from procler.config.findings import Findings, child, item
from procler.config.model import WatchSpec
from procler.config.specs import INVALID
from procler.globs import GlobError, glob_pattern

Substitute = Callable[[str, str], str]  # (YAML path, text) -> text with ${VAR} replaced


def build_watch(sub: Substitute, findings: Findings, path: str, raw: Any) -> WatchSpec:
    """`watch: GLOB` or `watch: {paths, exclude, debounce, action, cascade}`."""
    if isinstance(raw, str):
        return WatchSpec(paths=_globs(sub, findings, path, [raw], single=True))
    fields = {
        k: raw[k] for k in ("debounce", "action", "cascade") if raw.get(k, INVALID) is not INVALID
    }
    if "action" in fields:
        fields["action"] = sub(child(path, "action"), fields["action"])
    return WatchSpec(
        paths=_globs(sub, findings, child(path, "paths"), raw.get("paths")),
        exclude=_globs(sub, findings, child(path, "exclude"), raw.get("exclude")),
        **fields,
    )


def _globs(
    sub: Substitute, findings: Findings, path: str, values: Any, single: bool = False
) -> tuple[str, ...]:
    found = []
    for i, glob in enumerate(values if isinstance(values, list) else []):
        if glob is INVALID:
            continue
        at = path if single else item(path, i)
        text = sub(at, glob)
        try:
            glob_pattern(text)
        except GlobError as exc:
            findings.add(at, f"invalid glob {text!r}: {exc}", "fix the glob (*, **, ?, [abc])")
            continue
        found.append(text)
    return tuple(found)
