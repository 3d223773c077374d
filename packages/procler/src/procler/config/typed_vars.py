"""`${VAR}` in values that are not text (ports, durations, counts): substituted in the YAML
nodes before the schema reads them, so `ports: ["${PORT}"]` is checked as the number it
becomes. Text values are substituted later by the builder, with the rest of the model;
doing both here would substitute twice (and turn a literal `$${X}` into a reference).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from procler.config.build import resolve_vars
from procler.config.findings import Findings, child, item
from procler.config.replicas import Templates, per_instance, with_placeholders
from procler.config.specs import Either, ListOf, ListOr, MapOf, Regex, Spec, Str, Struct
from procler.config.substitute import Expansion, SubstitutionError, chain_lookup, substitute
from procler.config.yaml_nodes import YNode

Lookup = Callable[[str], str | None]


def variables(root: YNode, environ: Mapping[str, str]) -> Lookup:
    """The config's vars (resolved in file order) then the environment, from the raw tree.

    Problems with the vars themselves are left to the builder, which reports them once.
    """
    raw: dict[str, str] = {}
    for key, value in root.pairs if root.kind == "map" else []:
        if key.text == "vars" and value.kind == "map":
            raw = {k.text: v.text for k, v in value.pairs if v.kind == "scalar"}
    expansion = Expansion()
    resolved = resolve_vars(raw, Findings(""), environ, expansion)
    return chain_lookup(resolved, environ, expansion=expansion)


def substitute_typed(
    spec: Spec, node: YNode, path: str, lookup: Lookup, findings: Findings, templates: Templates
) -> None:
    """Walk the node with its spec and substitute every non-text scalar in place; one that
    uses PROCLER_REPLICA or PROCLER_PORT is also kept in `templates`, to be read again per
    replica (procler.config.replicas)."""
    if isinstance(spec, Struct) and node.kind == "map":
        for key, value in node.pairs:
            field = spec.fields.get(key.text)
            if field is not None:
                substitute_typed(field, value, child(path, key.text), lookup, findings, templates)
    elif isinstance(spec, MapOf) and node.kind == "map":
        for key, value in node.pairs:
            substitute_typed(spec.each, value, child(path, key.text), lookup, findings, templates)
    elif isinstance(spec, ListOf) and node.kind == "seq":
        for index, entry in enumerate(node.items):
            substitute_typed(spec.each, entry, item(path, index), lookup, findings, templates)
    elif isinstance(spec, Either):
        chosen: Spec = spec.mapping if node.kind == "map" else spec.scalar
        substitute_typed(chosen, node, path, lookup, findings, templates)
    elif isinstance(spec, ListOr):
        listed: Spec = spec.mapping if node.kind == "map" else spec.listed
        substitute_typed(listed, node, path, lookup, findings, templates)
    elif node.kind == "scalar" and "${" in node.text and not isinstance(spec, Str | Regex):
        look = lookup
        if per_instance(node.text):
            templates[path] = (spec, replace(node))
            look = with_placeholders(lookup)
        try:
            node.text = substitute(node.text, look)
        except SubstitutionError as exc:
            findings.on(node, path, exc.message, exc.suggestion)
