"""Input Procler cannot use is refused with exit 2 before anything is written."""

from __future__ import annotations

from pathlib import Path

from procler_testkit.config_helpers import errors_of, run_procler, write_config

from procler.config.keys import IMAGE_HINT, NAME_HINT

VALID = "version: 1\nprocesses:\n  db: {command: sleep 60}\n"


def test_an_image_name_docker_would_refuse_is_a_finding(project: Path) -> None:
    path = write_config(project, "processes:\n  c: {context: docker, docker: {image: 'BAD::x'}}\n")
    assert [(e["message"], e["suggestion"]) for e in errors_of(path)] == [
        ("'BAD::x' is not an image reference", IMAGE_HINT)
    ]


def test_run_with_a_refused_image_leaves_no_definition(project: Path) -> None:
    write_config(project, VALID)
    code, env = run_procler(project, "run", "web", "--image", "BAD::x", "--", "sh")
    assert (code, env["error_code"], env["error"]) == (
        2,
        "USAGE",
        "--image 'BAD::x' is not an image reference",
    )
    assert not (project / ".procler" / "state" / "definitions.json").exists()
    assert [p["name"] for p in run_procler(project, "list")[1]["data"]["processes"]] == ["db"]


def test_names_longer_than_the_log_store_holds_are_refused(project: Path) -> None:
    long = "a" * 129
    path = write_config(project, f"processes:\n  {long}: {{command: x}}\n")
    assert [(e["message"], e["suggestion"]) for e in errors_of(path)] == [
        (f"invalid name {long!r}", NAME_HINT)
    ]
    write_config(project, VALID)
    code, env = run_procler(project, "define", long, "--command", "sleep 1")
    assert (code, env["error_code"], env["suggestion"]) == (2, "USAGE", NAME_HINT)
    assert "128" in NAME_HINT


def test_an_env_file_error_names_the_line_and_never_prints_it(project: Path) -> None:
    (project / "secrets.env").write_text("TOKEN=1\nroot:$6$hash:19000:0:99999:7:::\n")
    path = write_config(project, "processes:\n  a: {command: x, env_file: secrets.env}\n")
    (finding,) = errors_of(path)
    assert finding["message"] == (
        f"cannot read env_file {project / 'secrets.env'}: line 2 is not KEY=VALUE"
    )
    assert "$6$hash" not in str(finding)
