from __future__ import annotations

import pytest
from agentcli_testkit.sample_app import APP

from agentcli.errors import UsageError
from agentcli.main import with_builtins
from agentcli.parser import did_you_mean, parse


def usage(argv: list[str]) -> UsageError:
    with pytest.raises(UsageError) as info:
        parse(with_builtins(APP), argv)
    return info.value


def test_parses_typed_values_and_defaults() -> None:
    cmd, values = parse(
        APP, ["greet", "bob", "--times", "3", "--env", "A=1", "--env=B=2", "--loud"]
    )
    assert cmd is not None and cmd.name == "greet"
    assert values["name"] == "bob"
    assert values["times"] == 3
    assert values["tone"] == "warm"
    assert values["timeout"] == 30.0
    assert values["env"] == [("A", "1"), ("B", "2")]
    assert values["loud"] is True


def test_duration_is_converted_when_given() -> None:
    _, values = parse(APP, ["greet", "bob", "--timeout", "1h30m"])
    assert values["timeout"] == 5400.0


def test_unknown_option_suggests_the_closest() -> None:
    err = usage(["greet", "bob", "--tial", "5"])
    assert err.message == "sample greet: unrecognized argument '--tial'"
    assert err.suggestion.startswith("did you mean --tail? valid options: ")


def test_unknown_global_option() -> None:
    err = usage(["--no-such-flag"])
    assert err.message == "sample: unrecognized argument '--no-such-flag'"
    assert err.code == "USAGE"


def test_unknown_command_suggests() -> None:
    err = usage(["gret"])
    assert err.message == "sample: unknown command 'gret'"
    assert (
        err.suggestion
        == "did you mean greet? valid commands: boom, capabilities, check, greet, job, open, run, show"
    )


def test_unknown_subcommand_lists_the_group() -> None:
    err = usage(["job", "wiat"])
    assert err.message == "sample: unknown command 'job wiat'"
    assert err.suggestion == "did you mean wait? valid commands: interrupt, list, wait"


def test_invalid_choice_names_valid_choices() -> None:
    err = usage(["greet", "bob", "--tone", "wram"])
    assert err.message == "sample greet: invalid value 'wram' for --tone"
    assert err.suggestion == "did you mean warm? valid choices: warm, cold"


@pytest.mark.parametrize(
    ("word", "hint"),
    [
        ("completed", "did you mean completed_successfully?"),  # too short for difflib
        ("complete", "did you mean completed_successfully?"),
        ("healthy", ""),  # begins no choice, and is close to none
        ("log", "did you mean log_ready?"),
        ("s", ""),  # begins two choices: no guess
        ("", ""),
    ],
)
def test_a_word_that_begins_one_choice_is_taken_as_its_start(word: str, hint: str) -> None:
    choices = ("started", "started_late", "log_ready", "completed_successfully")
    assert did_you_mean(word, choices) == hint


def test_bad_integer() -> None:
    err = usage(["greet", "bob", "--times", "many"])
    assert err.message.startswith("sample greet: invalid integer value 'many' for --times")


def test_missing_required_and_missing_value() -> None:
    assert usage(["greet"]).message == "sample greet: missing required argument(s): NAME"
    assert usage(["greet", "bob", "--times"]).message == "sample greet: --times needs a value"
    assert usage([]).message == "sample: a command is required"


def test_extra_positional() -> None:
    assert usage(["greet", "bob", "alice"]).message == "sample greet: unexpected argument 'alice'"


def test_remainder_keeps_everything_after_double_dash() -> None:
    _, values = parse(
        APP, ["run", "web", "--", "python", "-m", "http.server", "--bind", "127.0.0.1"]
    )
    assert values["name"] == "web"
    assert values["cmd"] == ["python", "-m", "http.server", "--bind", "127.0.0.1"]


def test_negative_number_is_a_value_and_refused_for_a_count() -> None:
    with pytest.raises(UsageError) as caught:
        parse(APP, ["greet", "bob", "--times", "-2"])
    assert (
        caught.value.message
        == "sample greet: invalid integer value '-2' for --times: must be 0 or more"
    )
    assert caught.value.suggestion == "give --times a valid integer"


def test_a_word_for_a_count_gets_a_message_not_the_int_parser_s() -> None:
    with pytest.raises(UsageError) as caught:
        parse(APP, ["greet", "bob", "--times", "abc"])
    assert caught.value.message == (
        "sample greet: invalid integer value 'abc' for --times: expected a whole number such as 100"
    )


def test_a_text_value_that_is_not_utf8_is_refused_with_its_bytes_escaped() -> None:
    not_utf8 = b"A=\xfe".decode("utf-8", "surrogateescape")
    with pytest.raises(UsageError) as caught:
        parse(APP, ["greet", "bob", "--env", not_utf8])
    assert caught.value.message == "sample greet: --env is not valid UTF-8: 'A=\\xfe'"


def test_a_path_may_be_any_bytes() -> None:
    name = b"bad-\xff.csv".decode("utf-8", "surrogateescape")
    _, values = parse(APP, ["check", name])
    assert values["data"] == name
