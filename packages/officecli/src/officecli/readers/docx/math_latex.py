"""Office Math (OMML) to LaTeX, for the common constructs; unknown ones keep their text."""

from __future__ import annotations

from officecli.readers.ooxml import local, q

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

NARY = {"∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∬": r"\iint", "∮": r"\oint", "⋃": r"\bigcup"}
SYMBOLS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "θ": r"\theta",
    "λ": r"\lambda", "μ": r"\mu", "π": r"\pi", "σ": r"\sigma", "φ": r"\phi", "ω": r"\omega",
    "Δ": r"\Delta", "Σ": r"\Sigma", "Ω": r"\Omega", "∞": r"\infty", "±": r"\pm",
    "×": r"\times", "÷": r"\div", "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "→": r"\to",
    "≈": r"\approx", "⋅": r"\cdot", "∂": r"\partial", "∇": r"\nabla",
}  # fmt: skip


def _arg(el: Element | None, name: str) -> str:
    child = el.find(q("m", name)) if el is not None else None
    return _children(child) if child is not None else ""


def _chr(el: Element, default: str) -> str:
    pr = next((c for c in el if local(c.tag).endswith("Pr")), None)
    node = pr.find(q("m", "chr")) if pr is not None else None
    return node.get(q("m", "val"), default) if node is not None else default


def _text(t: str) -> str:
    return "".join(SYMBOLS.get(ch, ch) + (" " if ch in SYMBOLS else "") for ch in t)


def _node(el: Element) -> str:
    name = local(el.tag)
    if name == "r":
        return "".join(_text(t.text or "") for t in el.iter(q("m", "t")))
    if name == "f":
        return rf"\frac{{{_arg(el, 'num')}}}{{{_arg(el, 'den')}}}"
    if name == "sSup":
        return f"{{{_arg(el, 'e')}}}^{{{_arg(el, 'sup')}}}"
    if name == "sSub":
        return f"{{{_arg(el, 'e')}}}_{{{_arg(el, 'sub')}}}"
    if name == "sSubSup":
        return f"{{{_arg(el, 'e')}}}_{{{_arg(el, 'sub')}}}^{{{_arg(el, 'sup')}}}"
    if name == "rad":
        degree = _arg(el, "deg")
        base = _arg(el, "e")
        return rf"\sqrt[{degree}]{{{base}}}" if degree else rf"\sqrt{{{base}}}"
    if name == "d":
        opening = _chr_attr(el, "begChr", "(")
        closing = _chr_attr(el, "endChr", ")")
        inner = ",".join(_children(e) for e in el.findall(q("m", "e")))
        return rf"\left{opening}{inner}\right{closing}"
    if name == "nary":
        op = _chr(el, "∫")
        sub, sup = _arg(el, "sub"), _arg(el, "sup")
        out = NARY.get(op, op)
        out += f"_{{{sub}}}" if sub else ""
        out += f"^{{{sup}}}" if sup else ""
        return f"{out} {_arg(el, 'e')}"
    if name == "func":
        return rf"\{_arg(el, 'fName').strip()} {_arg(el, 'e')}"
    if name == "acc":
        return rf"\hat{{{_arg(el, 'e')}}}"
    if name == "bar":
        return rf"\overline{{{_arg(el, 'e')}}}"
    if name.endswith("Pr"):
        return ""
    return _children(el)


def _chr_attr(el: Element, tag: str, default: str) -> str:
    pr = el.find(q("m", "dPr"))
    node = pr.find(q("m", tag)) if pr is not None else None
    value = node.get(q("m", "val"), default) if node is not None else default
    return {"{": r"\{", "}": r"\}", "": "."}.get(value, value)


def _children(el: Element) -> str:
    return "".join(_node(c) for c in el)


def omath_latex(el: Element) -> str:
    """LaTeX for an m:oMath or m:oMathPara element."""
    if local(el.tag) == "oMathPara":
        return " ".join(_children(m) for m in el.findall(q("m", "oMath"))).strip()
    return _children(el).strip()
