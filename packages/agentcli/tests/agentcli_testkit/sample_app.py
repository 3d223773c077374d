"""A small tool declared with agentcli, used by the tests as a real console program."""

from __future__ import annotations

from typing import Any

from agentcli.commands import (
    App,
    Arg,
    Column,
    Command,
    Document,
    Field,
    FileFormat,
    Outcome,
    Table,
    TableView,
)
from agentcli.errors import ConditionNotMet, InputError, UsageError
from agentcli.main import main
from agentcli.report import Finding, Report


def greet(values: dict[str, Any], command: Command) -> Any:
    return {"greeting": f"hello {values['name']}", "times": values["times"]}


def boom(values: dict[str, Any], command: Command) -> Any:
    raise RuntimeError("kaboom\nsecond line")


def missing(values: dict[str, Any], command: Command) -> Any:
    raise InputError(f"no such file: {values['path']}", suggestion="check the path")


def check(values: dict[str, Any], command: Command) -> Any:
    report = Report("sample", "1.0.0", "Sample check", meta={"input": "x.csv", "rows": 2})
    report.add(
        Finding("R-1", "error", "total <mismatch>", "row 2", "total", "8800", "8900", "fix it")
    )
    return Outcome(report, 1)


def show(values: dict[str, Any], command: Command) -> Any:
    """A document command: the document on stdout, or only the report."""
    if values["name"] == "many":
        raise UsageError("one name only with --stdout", suggestion="drop --stdout")
    report = Report("sample", "1.0.0", "Sample show", meta={"name": values["name"]})
    report.add(Finding("S-1", "warning", "shown", values["name"]))
    if values["stdout"]:
        return Document(f"# {values['name']}\n", report, 1)
    return Outcome(report, 1)


def wait(values: dict[str, Any], command: Command) -> Any:
    raise ConditionNotMet("condition not met", data={"status": "stopped"})


def interrupt(values: dict[str, Any], command: Command) -> Any:
    raise KeyboardInterrupt


JOBS = [
    {"name": "build", "state": "ok", "took": 3725.5, "rss": 3 * 2**20, "cpu": 1.25, "tags": []},
    {
        "name": "deploy\x1b[2J",
        "state": "failed",
        "took": 5,
        "rss": None,
        "cpu": 0,
        "tags": ["a", "b"],
    },
]


def jobs(values: dict[str, Any], command: Command) -> Any:
    if values["name"] == "missing":
        raise InputError("no such job: missing", suggestion="list the jobs")
    return {"jobs": JOBS, "warning": {"message": "the jobs file is stale"}}


JOBS_TABLE = TableView(
    Table(
        (
            Column("name"),
            Column("state", styles={"ok": "green", "failed": "bold red"}),
            Column("took", kind="seconds"),
            Column("memory", "rss", kind="bytes"),
            Column("cpu", kind="percent"),
            Column("tags"),
        ),
        "jobs",
    ),
    notes=("warning",),
)


APP = App(
    "sample",
    "1.0.0",
    "A sample tool.",
    (
        Command(
            "greet",
            "say hello",
            "agentcli_testkit.sample_app:greet",
            args=(
                Arg("name", "who to greet", required=True),
                Arg("--times", "how often", type="integer", default=1),
                Arg("--tone", "tone", choices=("warm", "cold"), default="warm"),
                Arg("--tail", "lines", type="integer", default=100),
                Arg("--timeout", "how long", type="duration", default="30s"),
                Arg("--env", "KEY=VALUE", type="key_value", multiple=True),
                Arg("--loud", "shout", type="boolean"),
            ),
            examples=("sample greet bob",),
        ),
        Command("boom", "fail unexpectedly", "agentcli_testkit.sample_app:boom"),
        Command(
            "open",
            "open a file",
            "agentcli_testkit.sample_app:missing",
            args=(Arg("path", "file", required=True),),
            errors=(InputError,),
        ),
        Command(
            "check",
            "check things",
            "agentcli_testkit.sample_app:check",
            mode="report",
            args=(Arg("data", "a file to check", type="path"),),
            files=(
                FileFormat(
                    "data file",
                    "DATA",
                    "a CSV file, one row per thing",
                    (
                        Field("name", "what the thing is called", required=True),
                        Field(
                            "size",
                            "how big it is",
                            values=(("small", "fits in a hand"), ("large", "does not")),
                            default="small",
                        ),
                    ),
                ),
            ),
        ),
        Command(
            "show",
            "show a document",
            "agentcli_testkit.sample_app:show",
            mode="report",
            document=True,
            args=(Arg("name", "what to show", required=True),),
        ),
        Command(
            "job wait",
            "wait for a condition",
            "agentcli_testkit.sample_app:wait",
            errors=(ConditionNotMet,),
        ),
        Command(
            "job list",
            "list the jobs",
            "agentcli_testkit.sample_app:jobs",
            args=(Arg("name", "only this job"),),
            errors=(InputError,),
            table=JOBS_TABLE,
        ),
        Command("job interrupt", "be interrupted", "agentcli_testkit.sample_app:interrupt"),
        Command(
            "run",
            "run a command",
            "agentcli_testkit.sample_app:greet",
            args=(
                Arg("name", "name", required=True),
                Arg("cmd", "command and args", type="remainder"),
            ),
        ),
    ),
)

if __name__ == "__main__":
    main(APP)
