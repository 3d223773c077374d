"""Tokenizer and parser of the rule expression language (never Python's eval).

The language has numbers, 'text', true/false/null, column names (`back quotes` for names
with spaces), arithmetic, comparisons, and/or/not and a fixed set of functions. There
is no attribute access, indexing, import, lambda or dunder name: the parser refuses them.
The tree is nested tuples, e.g. ("bin", "+", ("name", "金額"), ("name", "税額")).
"""

from __future__ import annotations

import keyword
from typing import Any

Node = tuple[Any, ...]

MAX_EXPONENT = 100  # 10 ** 100 is already beyond any amount; larger ones only burn CPU
MAX_LENGTH = 2000
# Parentheses, calls and signs nested this deep, or a tree this deep (a+a+a+... nests to the
# left), are refused: deeper ones only exhaust the stack of the recursive parser and compiler.
MAX_NESTING = 40
MAX_TREE_DEPTH = 200
FUNCTION_ARITY: dict[str, tuple[int, int]] = {
    "abs": (1, 1),
    "round": (1, 2),
    "min": (1, 64),
    "max": (1, 64),
    "len": (1, 1),
    "blank": (1, 1),
    "number": (1, 1),
    "date": (1, 1),
    "days": (2, 2),
    "year": (1, 1),
    "month": (1, 1),
    "day": (1, 1),
    "contains": (2, 2),
    "matches": (2, 2),
}
_OPERATORS = ("**", "//", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",")
_WORDS = {"and", "or", "not", "true", "false", "null"}
_REFUSED_CHARS = {
    ".": "attribute access is not allowed",
    "[": "indexing is not allowed",
    "]": "indexing is not allowed",
    "=": "use == to compare",
    "@": "decorators and matrix operators are not allowed",
    ";": "only one expression is allowed",
    "{": "braces are not allowed",
    "}": "braces are not allowed",
    ":": "slices and lambdas are not allowed",
}
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


class ExpressionError(Exception):
    """A syntax error or a refused construct, at a character offset in the expression."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


Token = tuple[str, Any, int]  # (kind, value, position); kinds: num str name op end


def _is_name_char(ch: str, first: bool) -> bool:
    return ch == "_" or ch.isalpha() or (not first and ch.isdigit())


def _read_string(text: str, start: int) -> tuple[str, int]:
    quote, i, out = text[start], start + 1, []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == quote:
            return "".join(out), i + 1
        out.append(ch)
        i += 1
    raise ExpressionError("unterminated text literal", start)


def tokenize(text: str) -> list[Token]:
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"expression longer than {MAX_LENGTH} characters", 0)
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isdigit() or (ch == "." and text[i + 1 : i + 2].isdigit()):
            j = i
            while j < len(text) and (text[j].isdigit() or text[j] == "."):
                j += 1
            try:
                tokens.append(("num", float(text[i:j]), i))
            except ValueError:
                raise ExpressionError(f"bad number {text[i:j]!r}", i) from None
            if j < len(text) and _is_name_char(text[j], True):
                raise ExpressionError("a name cannot start with a digit", j)
            i = j
        elif ch in "'\"":
            value, i_next = _read_string(text, i)
            tokens.append(("str", value, i))
            i = i_next
        elif ch == "`":
            end = text.find("`", i + 1)
            if end < 0:
                raise ExpressionError("unterminated `name`", i)
            tokens.append(("name", _checked_name(text[i + 1 : end], i), i))
            i = end + 1
        elif _is_name_char(ch, True):
            j = i
            while j < len(text) and _is_name_char(text[j], False):
                j += 1
            word = text[i:j]
            kind = "op" if word in _WORDS else "name"
            tokens.append((kind, word if kind == "op" else _checked_name(word, i), i))
            i = j
        else:
            op = next((o for o in _OPERATORS if text.startswith(o, i)), None)
            if op is None:
                reason = _REFUSED_CHARS.get(ch, "unexpected character")
                raise ExpressionError(f"{reason}: {ch!r}", i)
            tokens.append(("op", op, i))
            i += len(op)
    tokens.append(("end", None, len(text)))
    return tokens


def _checked_name(name: str, position: int) -> str:
    if "__" in name:
        raise ExpressionError(f"names with double underscores are not allowed: {name!r}", position)
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise ExpressionError(
            f"Python keyword {name!r} is not allowed (no import, lambda, ...)", position
        )
    if not name:
        raise ExpressionError("empty `name`", position)
    return name


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.pos = 0
        self.nesting = 0

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def take(self, value: str | None = None) -> Token:
        token = self.tokens[self.pos]
        if value is not None and token[1] != value:
            found = "the end" if token[0] == "end" else repr(token[1])
            raise ExpressionError(f"expected {value!r}, found {found}", token[2])
        self.pos += 1
        return token

    def at(self, *values: str) -> bool:
        kind, value, _ = self.tokens[self.pos]
        return kind == "op" and value in values

    def parse(self) -> Node:
        node = self.or_expr()
        kind, value, position = self.peek()
        if kind != "end":
            raise ExpressionError(f"unexpected {value!r}", position)
        return node

    def or_expr(self) -> Node:
        node = self.and_expr()
        while self.at("or"):
            self.take()
            node = ("or", node, self.and_expr())
        return node

    def and_expr(self) -> Node:
        node = self.not_expr()
        while self.at("and"):
            self.take()
            node = ("and", node, self.not_expr())
        return node

    def not_expr(self) -> Node:
        if not self.at("not"):
            return self.comparison()
        self.take()
        self._deeper()
        try:
            return ("not", self.not_expr())
        finally:
            self.nesting -= 1

    def comparison(self) -> Node:
        node = self.additive()
        if self.at(*COMPARISONS):
            op = self.take()[1]
            node = ("cmp", op, node, self.additive())
            if self.at(*COMPARISONS):
                raise ExpressionError(
                    "chained comparisons are not allowed; use and", self.peek()[2]
                )
        return node

    def additive(self) -> Node:
        node = self.term()
        while self.at("+", "-"):
            node = ("bin", self.take()[1], node, self.term())
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.at("*", "/", "//", "%"):
            node = ("bin", self.take()[1], node, self.unary())
        return node

    def unary(self) -> Node:
        self._deeper()
        try:
            if self.at("-", "+"):
                op = self.take()[1]
                return ("neg", self.unary()) if op == "-" else self.unary()
            return self.power()
        finally:
            self.nesting -= 1

    def _deeper(self) -> None:
        """Count one more level of recursion; refuse past MAX_NESTING."""
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise ExpressionError(f"nested deeper than {MAX_NESTING} levels", self.peek()[2])

    def power(self) -> Node:
        node = self.atom()
        if self.at("**"):
            position = self.take()[2]
            exponent = self.unary()
            literal = exponent[1] if exponent[0] == "num" else None
            if exponent[0] == "neg" and exponent[1][0] == "num":
                literal = exponent[1][1]
            if literal is not None and abs(literal) > MAX_EXPONENT:
                raise ExpressionError(f"exponent larger than {MAX_EXPONENT} refused", position)
            node = ("bin", "**", node, exponent)
        return node

    def atom(self) -> Node:
        kind, value, position = self.take()
        if kind == "num":
            return ("num", value)
        if kind == "str":
            return ("str", value)
        if kind == "name":
            if self.at("("):
                return self.call(value, position)
            return ("name", value)
        if value in ("true", "false", "null"):
            return ("const", {"true": True, "false": False, "null": None}[value])
        if value == "(":
            node = self.or_expr()
            self.take(")")
            return node
        found = "the end" if kind == "end" else repr(value)
        raise ExpressionError(f"unexpected {found}", position)

    def call(self, name: str, position: int) -> Node:
        if name not in FUNCTION_ARITY:
            raise ExpressionError(
                f"unknown function {name!r}; known: {', '.join(FUNCTION_ARITY)}", position
            )
        self.take("(")
        args: list[Node] = []
        while not self.at(")"):
            args.append(self.or_expr())
            if not self.at(")"):
                self.take(",")
        self.take(")")
        low, high = FUNCTION_ARITY[name]
        if not low <= len(args) <= high:
            raise ExpressionError(
                f"{name}() takes {low}..{high} arguments, got {len(args)}", position
            )
        return ("call", name, tuple(args))


def tree_depth(node: Node) -> int:
    """The depth of a tree, walked without recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        children = current[2] if current[0] == "call" else current[1:]
        stack += [(c, depth + 1) for c in children if isinstance(c, tuple)]
    return deepest


def parse_expression(text: str) -> Node:
    """Parse or raise ExpressionError."""
    tree = _Parser(text).parse()
    if tree_depth(tree) > MAX_TREE_DEPTH:
        raise ExpressionError(f"expression nested deeper than {MAX_TREE_DEPTH} levels", 0)
    return tree


def names_in(node: Node) -> list[str]:
    """Column names the expression reads, in order of first use."""
    found: dict[str, None] = {}

    def walk(n: Any) -> None:
        if isinstance(n, tuple):
            if n and n[0] == "name":
                found[n[1]] = None
                return
            for part in n[2] if n[0] == "call" else n[1:]:
                walk(part)

    walk(node)
    return list(found)
