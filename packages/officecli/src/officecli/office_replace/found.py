"""What one file's replacements become in the report: one finding per match."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from agentcli.report import Finding
from officecli.office_replace.commands import DEFAULT_FACTOR, SKIPPED
from officecli.office_replace.growth import Growth
from officecli.office_replace.rules import Rule
from officecli.office_replace.textedit import Hit, Segment, apply_rules

Paragraphs = Iterable[tuple[str, list[Segment], bool]]


@dataclass
class Found:
    """Findings of one file, located as `FILE :: part-or-story :: place`."""

    label: str
    factor: int = DEFAULT_FACTOR  # --max-growth
    findings: list[Finding] = field(default_factory=list)
    replaced: int = 0
    growth: Growth = field(init=False)

    def __post_init__(self) -> None:
        self.growth = Growth(self.label, self.factor)

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

    def rewritten(self, rule_id: str, what: str, old: str, new: str, *where: str) -> None:
        """A reference that a rename rewrites (a formula naming a renamed sheet)."""
        self.replaced += 1
        self.findings.append(
            Finding(
                rule_id,
                "info",
                f"{what}: {old!r} -> {new!r}",
                location=self.where(*where),
                field="sheet reference",
                expected=old,
                actual=new,
            )
        )

    def warn(
        self,
        rule_id: str,
        message: str,
        *where: str,
        expected: str = "",
        actual: str = "",
        field: str = "",
        suggestion: str = "",
    ) -> None:
        self.findings.append(
            Finding(
                rule_id,
                "warning",
                message,
                location=self.where(*where),
                field=field,
                expected=expected,
                actual=actual,
                suggestion=suggestion,
            )
        )

    def paragraph(
        self, segments: list[Segment], rules: Sequence[Rule], *where: str, story: str, silent: bool
    ) -> bool:
        """Apply the rules to one paragraph; report it unless silent. True if anything changed."""
        edited = False
        for hit in apply_rules(segments, rules, self.growth):
            edited = edited or not hit.skipped
            if not silent:
                self.hit(hit, *where, story=story)
        return edited

    def paragraphs(self, items: Paragraphs, rules: Sequence[Rule], *where: str, story: str) -> bool:
        """Apply the rules to each paragraph; report all but silent copies. True if any edit."""
        edited = False
        for place, segments, silent in items:
            if segments and self.paragraph(
                segments, rules, *where, place, story=story, silent=silent
            ):
                edited = True
        return edited
