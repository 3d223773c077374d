"""Turn a checked `watch:` value into a WatchSpec: globs substituted and checked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from procler.config.findings import child, item
from procler.config.model import WatchSpec
from procler.config.specs import INVALID
from procler.globs import GlobError, glob_pattern

if TYPE_CHECKING:
    from procler.config.build_process import ProcessBuilder


def build_watch(builder: ProcessBuilder, path: str, raw: Any) -> WatchSpec:
    """`watch: GLOB` or `watch: {paths, exclude, debounce, action, cascade}`."""
    if isinstance(raw, str):
        return WatchSpec(paths=_globs(builder, path, [raw], single=True))
    fields = {
        k: raw[k] for k in ("debounce", "action", "cascade") if raw.get(k, INVALID) is not INVALID
    }
    if "action" in fields:
        fields["action"] = builder.sub(child(path, "action"), fields["action"])
    return WatchSpec(
        paths=_globs(builder, child(path, "paths"), raw.get("paths")),
        exclude=_globs(builder, child(path, "exclude"), raw.get("exclude")),
        **fields,
    )


def _globs(
    builder: ProcessBuilder, path: str, values: Any, single: bool = False
) -> tuple[str, ...]:
    found = []
    for i, glob in enumerate(values if isinstance(values, list) else []):
        if glob is INVALID:
            continue
        at = path if single else item(path, i)
        text = builder.sub(at, glob)
        try:
            glob_pattern(text)
        except GlobError as exc:
            builder.findings.add(
                at, f"invalid glob {text!r}: {exc}", "fix the glob (*, **, ?, [abc])"
            )
            continue
        found.append(text)
    return tuple(found)
