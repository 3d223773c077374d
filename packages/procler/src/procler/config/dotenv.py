"""Read a dotenv file: KEY=VALUE lines, `export` prefixes, comments, quoted values."""

from __future__ import annotations

import re

_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")
MAX_ENV_FILE_BYTES = 4 << 20  # an env file of secrets and settings: kilobytes, not megabytes
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


class DotenvError(ValueError):
    pass


def parse_dotenv(text: str) -> list[tuple[str, str]]:
    """The (key, value) pairs in file order; raise DotenvError naming the bad line's number."""
    pairs: list[tuple[str, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if not match:
            # Never quote the line: env_file may point at a file of secrets (or /etc/shadow).
            raise DotenvError(f"line {number} is not KEY=VALUE")
        pairs.append((match.group(1), _value(match.group(2), number)))
    return pairs


_PLAIN_QUOTED = re.compile(r"'[^']*'|\"[^\"\\]*\"")


def is_plain(text: str) -> bool:
    """Whether every assignment reads the same in any env-file reader (systemd's
    EnvironmentFile= among them): no `export` prefix, no backslash, and a value either quoted
    whole or unquoted without a ` #` comment."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        value = line.partition("=")[2].strip()
        if re.match(r"export\s", line) or "\\" in value:
            return False
        if value[:1] in ("'", '"'):
            if not _PLAIN_QUOTED.fullmatch(value):
                return False
        elif re.search(r"\s#", value):
            return False
    return True


def _value(raw: str, number: int) -> str:
    if raw[:1] in ("'", '"'):
        quote = raw[0]
        end = raw.find(quote, 1)
        while quote == '"' and end > 0 and raw[end - 1] == "\\":
            end = raw.find(quote, end + 1)
        if end < 0:
            raise DotenvError(f"line {number}: unterminated {quote} quote")
        inner = raw[1:end]
        if quote == "'":
            return inner
        return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), inner)
    return re.sub(r"\s+#.*$", "", raw).strip()
