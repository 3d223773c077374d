"""Several config files as one: a team's shared config, then overrides (`--config` given
again, `PROCLER_CONFIG=a.yaml:b.yaml`, the project's `.procler/config.local.yaml`).

Compose's rules, on the YAML nodes before the schema reads them (so every value keeps the
file, line and column it was written at): mappings merge key by key, scalars and lists
replace (`env` is a mapping, so it merges by key). A key that excludes others in its
mapping (`args` and `command`, the probe kinds of a check, `image` and `container`)
replaces the ones it excludes. A value tagged `!reset` removes the key (compose's spelling).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from procler.config.specs import Either, MapOf, Spec, Struct
from procler.config.yaml_nodes import YNode

RESET_TAG = "!reset"


def merge(base: YNode, over: YNode, spec: Spec | None) -> YNode:
    """`over` laid on `base` (spec: what the schema expects here, to know what excludes what)."""
    if base.kind != "map" or over.kind != "map":
        return over
    pairs = list(base.pairs)
    first: dict[
        str, int
    ] = {}  # key -> index of its first pair in base (a duplicate stays for the schema)
    for index, (key, _) in enumerate(pairs):
        if key.kind == "scalar":
            first.setdefault(key.text, index)
    taken: set[int] = set()
    dropped: set[int] = set()
    for key, value in over.pairs:
        at = first.get(key.text) if key.kind == "scalar" else None
        for other in _excluded(spec, key.text, over):
            if other in first and first[other] not in taken:
                dropped.add(first[other])
        if at is None or at in taken:
            pairs.append((key, value))
            continue
        taken.add(at)
        if value.tag == RESET_TAG:
            dropped.add(at)
        else:
            pairs[at] = (key, merge(pairs[at][1], value, _inner(spec, key.text, value)))
    kept = [pair for index, pair in enumerate(pairs) if index not in dropped]
    return replace(over, line=base.line, column=base.column, file=base.file, pairs=kept)


def _excluded(spec: Spec | None, key: str, over: YNode) -> list[str]:
    """The keys `key` excludes in this mapping, unless the override writes them too."""
    struct = spec.mapping if isinstance(spec, Either) else spec
    if not isinstance(struct, Struct) or key not in struct.exclusive:
        return []
    written = {k.text for k, _ in over.pairs}
    return [k for k in struct.exclusive if k != key and k not in written]


def _inner(spec: Spec | None, key: str, value: YNode) -> Spec | None:
    struct = spec.mapping if isinstance(spec, Either) else spec
    if isinstance(struct, Struct):
        return struct.fields.get(key)
    if isinstance(struct, MapOf):
        return struct.each
    return None


def without_resets(node: YNode) -> YNode:
    """The tree with every `!reset` key left out (one written where nothing was merged)."""
    if node.kind == "seq":
        return replace(node, items=[without_resets(n) for n in node.items])
    if node.kind != "map":
        return node
    return replace(
        node, pairs=[(k, without_resets(v)) for k, v in node.pairs if v.tag != RESET_TAG]
    )


def origins(node: YNode, path: str = "") -> dict[str, dict[str, Any]]:
    """Where each value of the merged tree was written: a YAML path (processes.web.env.PORT)
    -> file, line and column. A list is one value (a later file replaces it whole)."""
    if node.kind != "map":
        return {path: {"file": node.file, "line": node.line, "column": node.column}}
    found: dict[str, dict[str, Any]] = {}
    for key, value in node.pairs:
        if key.kind == "scalar":
            found.update(origins(value, f"{path}.{key.text}" if path else key.text))
    return found
