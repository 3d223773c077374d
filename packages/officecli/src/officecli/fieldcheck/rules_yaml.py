"""Reading rules.yaml: ruamel's position-carrying nodes, with a size, a nesting and an alias
budget, turned into plain Python values where the checks need them."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from agentcli.files import FileTooLargeError, read_regular
from officecli.fieldcheck.errors import RulesFileError

MAX_RULES_BYTES = 5 << 20


def position(node: Any, key: Any, value: bool) -> tuple[int, int]:
    """1-based (line, column) of node[key] (its value or its key), else of node itself."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return 0, 0
    try:
        if key is not None and isinstance(node, list):
            line, col = lc.item(key)
        elif key is not None:
            line, col = lc.value(key) if value else lc.key(key)
        else:
            line, col = lc.line, lc.col
    except (KeyError, IndexError, TypeError):
        line, col = lc.line, lc.col
    return int(line) + 1, int(col) + 1


MAX_NESTING = 64  # deeper rules files are not written by people; the loader's checks recurse
MAX_NODES = 100_000  # YAML aliases can make a tiny file expand without bound ("billion laughs")


def plain(value: Any, budget: list[int] | None = None) -> Any:
    """ruamel's commented types as plain Python; YAML dates become ISO text."""
    budget = [MAX_NODES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        raise RulesFileError(f"rules file expands to more than {MAX_NODES} values (YAML aliases?)")
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): plain(v, budget) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v, budget) for v in value]
    return str(value)


def read_yaml(path: Path) -> Any:
    import warnings

    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, ReusedAnchorWarning, YAMLError

    try:
        data = read_regular(path, MAX_RULES_BYTES, path.name)
    except FileTooLargeError:
        raise RulesFileError(f"{path.name}: larger than {MAX_RULES_BYTES} bytes") from None
    except OSError as exc:
        raise RulesFileError(f"{path.name}: cannot be read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
        with warnings.catch_warnings():
            # YAML 1.2 lets an anchor be defined again (aliases then use the newer one);
            # ruamel warns on stderr, where only the tool's own lines belong
            warnings.simplefilter("ignore", ReusedAnchorWarning)
            doc = YAML(typ="rt").load(text)
    except RecursionError:
        raise RulesFileError(f"{path.name}: nested deeper than the YAML reader allows") from None
    except UnicodeDecodeError as exc:  # the bytes themselves are never quoted
        raise RulesFileError(f"{path.name}: not UTF-8 text (at byte {exc.start})") from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        raise RulesFileError(
            f"{path.name}:{line}:{col}: {problem}",
            data={"file": str(path), "line": line, "column": col},
        ) from None
    except YAMLError as exc:
        raise RulesFileError(f"{path.name}: {exc}") from None
    except ValueError:  # ruamel builds the value: an integer past Python's digit limit
        raise _unreadable_value(path, text) from None
    if nesting(doc) > MAX_NESTING:
        raise RulesFileError(f"{path.name}: mappings and lists nested deeper than {MAX_NESTING}")
    return doc


def _unreadable_value(path: Path, text: str) -> RulesFileError:
    """The error for a value YAML parses but Python cannot build: an integer of more
    digits than Python converts (4300), or a date out of range. Never quotes it."""
    import re
    import sys

    limit = sys.get_int_max_str_digits()
    long = re.search(rf"\d{{{limit + 1},}}", text)
    if long is None:
        return RulesFileError(
            f"{path.name}: a value cannot be read (a date out of range?)",
            suggestion="check the dates and numbers of the file; quote a value meant as text",
        )
    line = text.count("\n", 0, long.start()) + 1
    column = long.start() - text.rfind("\n", 0, long.start())
    return RulesFileError(
        f"{path.name}:{line}:{column}: a number of more than {limit} digits",
        suggestion="write a shorter number (no limit needs more than a few digits), or "
        "quote it to mean text",
        data={"file": str(path), "line": line, "column": column},
    )


def nesting(doc: Any) -> int:
    """How deep mappings and lists nest, walked without recursion (aliases counted once)."""
    deepest, stack, seen = 0, [(doc, 1)], set()
    while stack:
        node, depth = stack.pop()
        if id(node) in seen or not isinstance(node, dict | list):
            continue
        seen.add(id(node))
        deepest = max(deepest, depth)
        children = node.values() if isinstance(node, dict) else node
        stack += [(child, depth + 1) for child in children]
    return deepest
