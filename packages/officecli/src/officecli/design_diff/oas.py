"""OpenAPI 3.0/3.1 (YAML or JSON) as operations with flat fields, positions kept.

`$ref` is resolved within the file and in files beside or below it (`other.yaml#/x`;
never outside its folder, nor over the network); a ref that does not resolve, a cycle deeper than MAX_DEPTH or more than MAX_NODES visited nodes is
an INVALID_OAS error. Every field remembers `file:line:column` of its definition.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from officecli.design_diff.errors import SpecError
from officecli.fieldcheck.errors import RulesFileError
from officecli.fieldcheck.rules_yaml import position, read_yaml
from officecli.readers.paths import not_a_file

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
PARAM_PLACES = {"path": "path", "query": "query", "header": "header", "cookie": "header"}
MAX_DEPTH = 32
MAX_NODES = 200_000


@dataclass
class Field:
    name: str  # dotted path for nested body properties
    place: str  # path, query, header, request, response
    type: str = ""
    required: bool = False
    max_length: int | None = None
    enum: tuple[str, ...] | None = None
    format: str = ""
    position: str = ""


@dataclass
class Operation:
    method: str
    path: str
    position: str
    fields: dict[tuple[str, str], Field] = field(default_factory=dict)


class _Loader:
    """Reads the OpenAPI file (and files it refers to); resolves refs with a budget."""

    def __init__(self, path: Path) -> None:
        self.root = path
        self.docs: dict[Path, Any] = {}
        self.budget = MAX_NODES

    def doc(self, path: Path) -> Any:
        if path not in self.docs:
            problem = not_a_file(path)
            if problem:
                raise SpecError(f"{path}: {problem}", suggestion="check the --oas path and $ref")
            try:
                self.docs[path] = read_yaml(path)
            except RulesFileError as exc:
                raise SpecError(exc.message, data=exc.data) from None
        return self.docs[path]

    def where(self, path: Path, node: Any, key: Any = None) -> str:
        line, col = position(node, key, False)
        return f"{path.name}:{line}:{col}" if line else path.name

    def resolve(self, path: Path, node: Any, depth: int = 0) -> tuple[Path, Any]:
        """Follow $ref until a node that is not a reference."""
        self.budget -= 1
        if self.budget < 0:
            raise SpecError(f"{self.root.name}: more than {MAX_NODES} nodes visited ($ref loop?)")
        while isinstance(node, dict) and "$ref" in node:
            if depth > MAX_DEPTH:
                raise SpecError(
                    f"{self.where(path, node, '$ref')}: $ref nested too deep (a cycle?)"
                )
            ref = str(node["$ref"])
            target, _, pointer = ref.partition("#")
            here = self.where(path, node, "$ref")
            file = (path.parent / target).resolve() if target else path
            if not file.is_relative_to(self.root.parent):
                raise SpecError(
                    f"{here}: $ref {ref!r} points outside the OpenAPI file's folder",
                    suggestion="keep referenced files beside the OpenAPI file or below it",
                )
            current = self.doc(file)
            for part in [p for p in pointer.split("/") if p]:
                part = part.replace("~1", "/").replace("~0", "~")
                if isinstance(current, list) and part.isdigit() and int(part) < len(current):
                    current = current[int(part)]
                elif isinstance(current, dict) and part in current:
                    current = current[part]
                else:
                    raise SpecError(
                        f"{here}: $ref {ref!r} does not resolve (no {part!r})",
                        suggestion="point the $ref at an existing component",
                    )
            path, node, depth = file, current, depth + 1
        return path, node


def _type(schema: dict[str, Any]) -> str:
    kind = schema.get("type", "")
    if isinstance(kind, list):  # 3.1: ["string", "null"]
        kind = next((k for k in kind if k != "null"), "")
    if not kind and "properties" in schema:
        kind = "object"
    return str(kind)


class _Collector:
    def __init__(self, loader: _Loader, op: Operation) -> None:
        self.loader = loader
        self.op = op

    def add(self, f: Field) -> None:
        self.op.fields.setdefault((f.place, f.name), f)

    def schema(self, path: Path, node: Any, place: str, prefix: str, depth: int = 0) -> None:
        """The properties of a body schema (objects, arrays of objects, allOf) as fields."""
        path, schema = self.loader.resolve(path, node)
        if not isinstance(schema, dict) or depth > MAX_DEPTH:
            return
        for part in schema.get("allOf", []) or []:
            self.schema(path, part, place, prefix, depth + 1)
        if _type(schema) == "array" and "items" in schema:
            self.schema(path, schema["items"], place, prefix, depth + 1)
            return
        props = schema.get("properties") or {}
        required = {str(r) for r in schema.get("required", []) or []}
        for name in props:
            where = self.loader.where(path, props, name)
            p_path, prop = self.loader.resolve(path, props[name])
            if not isinstance(prop, dict):
                continue
            full = f"{prefix}{name}"
            self.add(_field(full, place, prop, str(name) in required, where))
            kind = _type(prop)
            if kind in ("object", "array") or "allOf" in prop:
                self.schema(p_path, prop, place, full + ".", depth + 1)

    def parameters(self, path: Path, params: Any) -> None:
        for raw in params or []:
            p_path, param = self.loader.resolve(path, raw)
            if not isinstance(param, dict) or param.get("in") not in PARAM_PLACES:
                continue
            place = PARAM_PLACES[str(param["in"])]
            _schema_path, schema = self.loader.resolve(p_path, param.get("schema", {}))
            where = self.loader.where(p_path, param)
            required = bool(param.get("required", False))
            self.add(_field(str(param.get("name", "")), place, schema, required, where))

    def body(self, path: Path, node: Any, place: str) -> None:
        path, body = self.loader.resolve(path, node)
        content = body.get("content") if isinstance(body, dict) else None
        if not isinstance(content, dict) or not content:
            return
        media = "application/json" if "application/json" in content else next(iter(content))
        _p, entry = self.loader.resolve(path, content[media])
        if isinstance(entry, dict) and "schema" in entry:
            self.schema(path, entry["schema"], place, "")


def _field(name: str, place: str, schema: Any, required: bool, where: str) -> Field:
    schema = schema if isinstance(schema, dict) else {}
    enum = schema.get("enum")
    length = schema.get("maxLength")
    return Field(
        name=name,
        place=place,
        type=_type(schema),
        required=required,
        max_length=int(length) if isinstance(length, int) else None,
        enum=tuple(str(v) for v in enum) if isinstance(enum, list) else None,
        format=str(schema.get("format", "")),
        position=where,
    )


def _success(responses: Any) -> Any:
    """The success response: the lowest 2xx code, else `default`."""
    if not isinstance(responses, dict):
        return None
    codes = sorted(str(c) for c in responses if str(c).startswith("2"))
    key = codes[0] if codes else ("default" if "default" in responses else None)
    if key is None:
        return None
    return next(v for k, v in responses.items() if str(k) == key)


def base_paths(doc: dict[str, Any]) -> list[str]:
    """The path part of each `servers` url ('/v1' for https://api.example.com/v1)."""
    from urllib.parse import urlsplit

    out = []
    for server in doc.get("servers", []) or []:
        if isinstance(server, dict) and "url" in server:
            out.append(urlsplit(str(server["url"])).path.rstrip("/"))
    return out


def load_operations(oas: str) -> tuple[list[Operation], list[str]]:
    """Every operation of an OpenAPI file, and its servers' base paths."""
    path = Path(oas)
    loader = _Loader(path.resolve())
    doc = loader.doc(path.resolve())
    if not isinstance(doc, dict) or "paths" not in doc or not str(doc.get("openapi", "")):
        raise SpecError(f"{path.name}: not an OpenAPI 3 document (needs `openapi` and `paths`)")
    root = path.resolve()
    operations = []
    paths = doc["paths"] if isinstance(doc["paths"], dict) else {}
    for route in paths:
        item_path, item = loader.resolve(root, paths[route])
        if not isinstance(item, dict):
            continue
        for method in METHODS:
            if method not in item:
                continue
            op_path, op = loader.resolve(item_path, item[method])
            if not isinstance(op, dict):
                continue
            operation = Operation(method, str(route), loader.where(item_path, item, method))
            collect = _Collector(loader, operation)
            collect.parameters(item_path, item.get("parameters"))
            collect.parameters(op_path, op.get("parameters"))
            if "requestBody" in op:
                collect.body(op_path, op["requestBody"], "request")
            success = _success(op.get("responses"))
            if success is not None:
                collect.body(op_path, success, "response")
            operations.append(operation)
    return operations, base_paths(doc)
