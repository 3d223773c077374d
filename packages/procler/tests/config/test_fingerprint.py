"""The definition hash covers every field of the spec, generically; the diff is exact."""

from __future__ import annotations

import dataclasses
from typing import Any

from procler.config.fingerprint import changed_fields, diff, spec_hash
from procler.config.model import HealthCheck, ProcessSpec

BASE = ProcessSpec(name="api", command="serve", env=(("A", "1"), ("B", "2")))


def test_every_field_of_the_spec_counts_including_ones_added_later() -> None:
    for f in dataclasses.fields(ProcessSpec):
        if f.name == "name":
            continue
        # a value no spec holds, whatever the field's type: the hash reads fields generically
        changed: dict[str, Any] = {f.name: "changed"}
        other = dataclasses.replace(BASE, **changed)
        assert (changed_fields(BASE, other), spec_hash(BASE) == spec_hash(other)) == (
            [f.name],
            False,
        )


def test_equal_definitions_hash_the_same_and_env_order_does_not_count() -> None:
    same = dataclasses.replace(BASE, env=(("B", "2"), ("A", "1")))
    assert (spec_hash(same) == spec_hash(BASE), changed_fields(BASE, same)) == (True, [])


def test_the_diff_names_added_changed_with_fields_removed_and_unchanged_in_order() -> None:
    check = HealthCheck(kind="exec", exec="true")
    old = {
        "db": ProcessSpec(name="db", command="db"),
        "api": BASE,
        "gone": ProcessSpec(name="gone", command="x"),
    }
    new = {
        "db": ProcessSpec(name="db", command="db"),
        "api": dataclasses.replace(BASE, env=(("A", "9"), ("B", "2")), healthcheck=check),
        "new": ProcessSpec(name="new", command="y"),
    }
    assert diff(old, new).as_dict() == {
        "added": ["new"],
        "changed": [{"name": "api", "fields": ["env", "healthcheck"]}],
        "removed": ["gone"],
        "unchanged": ["db"],
    }
