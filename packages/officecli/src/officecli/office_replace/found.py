"""What one file's replacements become in the report: one finding per match."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from agentcli.report import Finding
from officecli.office_replace.rules import Rule
from officecli.office_replace.textedit import Hit, Segment, apply_rules

Paragraphs = Iterable[tuple[str, list[Segment], bool]]

SKIPPED = "replace.skipped"
FURIGANA = "replace.furigana"
FAILED = "replace.failed"


@dataclass
class Found:
    """Findings of one file, located as `FILE :: part-or-story :: place`."""

    label: str
    findings: list[Finding] = field(default_factory=list)
    replaced: int = 0

    def where(self, *parts: str) -> str:
        return " :: ".join((self.label, *[p for p in parts if p]))

    def hit(self, hit: Hit, *where: str, story: str) -> None:
        location = self.where(*where)
        if hit.skipped:
            self.findings.append(
                Finding(
                    SKIPPED,
                    "warning",
                    f"rule {hit.rule.id}: {hit.found!r} not replaced: the match spans {hit.skipped}",
                    location=location,
                    field=hit.rule.id,
                    expected=hit.before,
                    actual=hit.before,
                    suggestion="edit this place by hand, or write a rule that stays inside it",
                )
            )
            return
        self.replaced += 1
        self.findings.append(
            Finding(
                hit.rule.id,
                "info",
                f"{hit.found!r} -> {hit.replacement!r}",
                location=location,
                field=story,
                expected=hit.before,
                actual=hit.after,
            )
        )

    def warn(
        self, rule_id: str, message: str, *where: str, expected: str = "", actual: str = ""
    ) -> None:
        self.findings.append(
            Finding(
                rule_id,
                "warning",
                message,
                location=self.where(*where),
                expected=expected,
                actual=actual,
            )
        )

    def paragraphs(self, items: Paragraphs, rules: Sequence[Rule], *where: str, story: str) -> bool:
        """Apply the rules to each paragraph; report all but silent copies. True if any edit."""
        edited = False
        for place, segments, silent in items:
            if not segments:
                continue
            for hit in apply_rules(segments, rules):
                edited = edited or not hit.skipped
                if not silent:
                    self.hit(hit, *where, place, story=story)
        return edited
