"""design-diff: keyed diff of Excel design workbooks, and an Excel API definition vs OpenAPI.

From Python: `from officecli.design_diff import diff` (see api.py); imported on first use,
so that the command line's start-up does not load the diff.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from officecli.design_diff.api import diff as diff

__all__ = ["diff"]


def __getattr__(name: str) -> object:
    if name == "diff":
        from officecli.design_diff.api import diff

        return diff
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
