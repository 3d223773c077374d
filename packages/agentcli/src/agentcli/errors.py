"""One exception hierarchy: each error knows its code, exit code and default suggestion.

Core code raises these; `agentcli.main.run` is the only place that turns them into
an exit code and an envelope.
"""

TYPE_CHECKING = False  # `typing` and `enum` stay off the CLI's start-up path
if TYPE_CHECKING:
    from typing import Any, ClassVar


class ExitCode:
    """The exit-code table every tool shares."""

    OK = 0
    FINDINGS = 1
    USAGE = 2
    INTERNAL = 3
    INTERRUPTED = 130


EXIT_CODE_MEANINGS: "dict[int, str]" = {
    ExitCode.OK: "success",
    ExitCode.FINDINGS: "the tool worked and found problems, or a condition was not met",
    ExitCode.USAGE: "usage or input: fix the arguments, the config file or the input file (its schema, or a damaged, unsupported or unsafe file); retrying as is will not help",
    ExitCode.INTERNAL: "unexpected runtime error",
    ExitCode.INTERRUPTED: "interrupted",
}


class AgentError(Exception):
    """Base of every error a tool reports to its caller."""

    code: "ClassVar[str]" = "ERROR"
    exit_code: "ClassVar[int]" = ExitCode.INTERNAL
    default_suggestion: "ClassVar[str]" = ""

    def __init__(
        self, message: "str", *, suggestion: "str | None" = None, data: "Any" = None
    ) -> "None":
        super().__init__(message)
        self.message = message
        self.suggestion = self.default_suggestion if suggestion is None else suggestion
        self.data = data


class UsageError(AgentError):
    """Bad arguments: the caller must change the command line."""

    code = "USAGE"
    exit_code = ExitCode.USAGE
    default_suggestion = "run with --help to see the valid arguments"


class InputError(AgentError):
    """Input that cannot be used as given (missing file, wrong schema)."""

    code = "INVALID_INPUT"
    exit_code = ExitCode.USAGE
    default_suggestion = "check the input path and format"


class ConditionNotMet(AgentError):
    """The tool worked but the condition asked for does not hold."""

    code = "CONDITION_NOT_MET"
    exit_code = ExitCode.FINDINGS


class InternalError(AgentError):
    """A bug or an unexpected environment failure."""

    code = "INTERNAL"
    exit_code = ExitCode.INTERNAL
    default_suggestion = "rerun with --debug to see the traceback on stderr, and report it"


class Interrupted(AgentError):
    """The user interrupted the command (SIGINT)."""

    code = "INTERRUPTED"
    exit_code = ExitCode.INTERRUPTED
    default_suggestion = "rerun the command; it is safe to repeat"


BASE_ERRORS: "tuple[type[AgentError], ...]" = (UsageError, InternalError, Interrupted)


class OutputIsInputError(UsageError):
    """An output path resolves to one of the command's inputs."""

    code = "OUTPUT_IS_INPUT"
    default_suggestion = "write the output somewhere else; inputs are never overwritten"


class NotRegularFileError(InputError):
    """An input path names a pipe, a device or a socket: reading it could block forever
    (a FIFO, /dev/stdin) or never end (/dev/zero)."""

    code = "NOT_REGULAR_FILE"
    default_suggestion = "name a regular file; pipes, devices and sockets are never read"


class FileTooLargeError(InputError):
    """An input file is larger than what the tool reads of that kind of file."""

    code = "FILE_TOO_LARGE"
    default_suggestion = "check that this is the right file; files of this kind are far smaller"
