"""Matching the columns of two versions of a table: by header, by role, then by content."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from officecli.design_diff.align import SIMILARITY_THRESHOLD, assign_similar, moved_pairs
from officecli.design_diff.normalize import label_key


@dataclass
class ColumnMatch:
    pairs: list[tuple[int, int]]  # (old, new) column indices, ordered by new
    renamed: set[tuple[int, int]]
    removed: list[int]
    added: list[int]
    moved: set[tuple[int, int]]


def _by_label(old: Sequence[str], new: Sequence[str], used_old: set[int]) -> dict[int, int]:
    """new index -> old index for equal (normalised) labels, in order of occurrence."""
    free: dict[str, list[int]] = {}
    for i, label in enumerate(old):
        if i not in used_old and label:
            free.setdefault(label, []).append(i)
    out = {}
    for j, label in enumerate(new):
        if label and free.get(label):
            out[j] = free[label].pop(0)
    return out


def header_pairs(
    old_headers: Sequence[str],
    new_headers: Sequence[str],
    old_roles: Sequence[str],
    new_roles: Sequence[str],
) -> dict[int, int]:
    """new -> old for the same header, then for the same preset role (物理名 vs Name)."""
    found = _by_label(
        [label_key(h) for h in old_headers], [label_key(h) for h in new_headers], set()
    )
    matched_new = set(found)
    roles_new = [r if j not in matched_new else "" for j, r in enumerate(new_roles)]
    found.update(_by_label(old_roles, roles_new, set(found.values())))
    return found


def match_columns(
    old_headers: Sequence[str],
    new_headers: Sequence[str],
    known: dict[int, int],
    content_score: Callable[[int, int], float],
) -> ColumnMatch:
    """Complete `known` (new -> old) with renames found by content over the matched rows."""
    rest_old = [i for i in range(len(old_headers)) if i not in known.values()]
    rest_new = [j for j in range(len(new_headers)) if j not in known]
    renamed = set(assign_similar(rest_old, rest_new, content_score, SIMILARITY_THRESHOLD))
    pairs = sorted([(o, n) for n, o in known.items()] + list(renamed), key=lambda p: p[1])
    paired_old = {o for o, _ in pairs}
    paired_new = {n for _, n in pairs}
    return ColumnMatch(
        pairs=pairs,
        renamed={p for p in pairs if label_key(old_headers[p[0]]) != label_key(new_headers[p[1]])},
        removed=[i for i in range(len(old_headers)) if i not in paired_old],
        added=[j for j in range(len(new_headers)) if j not in paired_new],
        moved=moved_pairs(pairs),
    )
