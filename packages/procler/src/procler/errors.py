"""Procler's typed errors: each knows its code, exit code and default suggestion."""

from agentcli.errors import AgentError, ConditionNotMet, ExitCode, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def _closest_then(name: str, known: "Iterable[str]", then: str) -> str:
    """`did you mean ...?` for the closest known name (when one is close), then `then`."""
    from agentcli.parser import did_you_mean

    hint = did_you_mean(name, sorted(known))
    return (hint + " " if hint else "") + then


class ConfigNotFound(UsageError):
    code = "CONFIG_NOT_FOUND"
    default_suggestion = "procler config init"


class ConfigExists(UsageError):
    code = "CONFIG_EXISTS"
    default_suggestion = "pass --force to overwrite it, or edit the existing file"


class ConfigInvalid(UsageError):
    code = "CONFIG_INVALID"
    default_suggestion = "run `procler config validate` and fix the errors at the lines it names"


class ProcessNotFound(UsageError):
    code = "PROCESS_NOT_FOUND"
    default_suggestion = "run `procler list` to see the defined processes"

    @classmethod
    def among(cls, name: str, known: "Iterable[str]") -> "ProcessNotFound":
        """No process `name` among `known`: suggest the closest one."""
        suggestion = _closest_then(name, known, cls.default_suggestion)
        return cls(f"no process named {name!r}", suggestion=suggestion)


class StdinClosed(UsageError):
    """`procler send` to a process whose stdin is not kept open (or that closed it)."""

    code = "STDIN_CLOSED"
    default_suggestion = "add `stdin: true` to the process in the config, then restart it"


class ProcessNotRunning(ConditionNotMet):
    """A command that needs the process's run (`send`) while it has none."""

    code = "NOT_RUNNING"
    default_suggestion = "start it first: `procler start NAME`"


class GroupNotFound(UsageError):
    code = "GROUP_NOT_FOUND"
    default_suggestion = "run `procler group list` to see the defined groups"

    @classmethod
    def among(cls, name: str, known: "Iterable[str]") -> "GroupNotFound":
        """No group `name` among `known`: suggest the closest one."""
        suggestion = _closest_then(name, known, cls.default_suggestion)
        return cls(f"no group named {name!r}", suggestion=suggestion)


class NotScheduled(UsageError):
    code = "NOT_SCHEDULED"
    default_suggestion = "run `procler schedule list` to see the scheduled processes"


class Conflict(UsageError):
    code = "CONFLICT"
    default_suggestion = "pass --force to replace the definition"


class PortInUse(AgentError):
    code = "PORT_IN_USE"
    exit_code = ExitCode.FINDINGS
    default_suggestion = "stop the process holding the port, or change the process's ports"


class StartFailed(AgentError):
    code = "START_FAILED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = "read the last stderr lines in data, fix the command, then start again"


class CommandFailed(AgentError):
    code = "COMMAND_FAILED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = "read stderr and the exit code in data, fix the command, then run it again"


class Timeout(ConditionNotMet):
    code = "TIMEOUT"
    default_suggestion = "wait longer with --timeout, or check `procler status` and `procler logs`"


class ConditionImpossible(ConditionNotMet):
    code = "CONDITION_IMPOSSIBLE"
    default_suggestion = (
        "start it (read why it stopped: `procler logs NAME --run previous`), or wait for a "
        "status it can reach"
    )


class DependencyFailed(AgentError):
    code = "DEPENDENCY_FAILED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = (
        "read data.cause (what kept the blocking process from its condition: an error code "
        "such as PORT_IN_USE with the port and its holder, or the status it ended in), fix it, "
        "then start again"
    )


class StateDirUnwritable(UsageError):
    code = "STATE_DIR_UNWRITABLE"
    default_suggestion = "make the project's .procler/ directory writable by this user"


class PermissionDenied(UsageError):
    code = "PERMISSION_DENIED"
    default_suggestion = "run Procler as the user who owns the project's .procler/state"


class SupervisorUnavailable(AgentError):
    code = "SUPERVISOR_UNAVAILABLE"
    exit_code = ExitCode.INTERNAL
    default_suggestion = (
        "read `procler daemon logs`, then retry; `procler daemon restart` starts a new one"
    )

    @classmethod
    def hung(
        cls, where: str, pid: str | None, lock_path: str, waited: float, taken: bool
    ) -> "SupervisorUnavailable":
        """A supervisor that did not answer in time: say whether the command was carried
        out (only if it was taken: it drops a request whose deadline passed) and how to
        replace the supervisor (procler.project.hung_supervisor finds its socket and pid)."""
        replace = (
            f"it may be hung: `kill -9 {pid or 'PID'}` (the pid in {lock_path}); the next "
            "command starts a new supervisor, which brings the processes back"
        )
        if taken:
            return cls(
                f"the supervisor on {where} took the request, then stopped answering: "
                "the command may have been carried out",
                suggestion=f"check `procler status` before running it again; {replace}",
            )
        return cls(
            f"the supervisor on {where} did not answer within {waited:g}s: the command was "
            "not carried out (a supervisor drops a request it could not take before its "
            "deadline)",
            suggestion=f"{replace}; then run the command again",
        )


class ContainerNotFound(UsageError):
    code = "CONTAINER_NOT_FOUND"
    default_suggestion = (
        "create the container first (the engine's `ps -a` lists them) or fix `container:`"
    )


class ImageNotFound(UsageError):
    code = "IMAGE_NOT_FOUND"
    default_suggestion = (
        "build or load the image locally (the engine's `images` lists them); Procler never pulls"
    )


class NotReplicated(UsageError):
    code = "NOT_REPLICATED"
    default_suggestion = "give the process `replicas: N` in the config, then scale it"


class NamespaceNotFound(UsageError):
    code = "NAMESPACE_NOT_FOUND"
    default_suggestion = "run `procler namespace list` to see the namespaces"

    @classmethod
    def among(cls, name: str, known: "Iterable[str]") -> "NamespaceNotFound":
        suggestion = _closest_then(name, known, cls.default_suggestion)
        return cls(f"no process is in namespace {name!r}", suggestion=suggestion)


class RecipeNotFound(UsageError):
    code = "RECIPE_NOT_FOUND"
    default_suggestion = "run `procler recipe list` to see the defined recipes"

    @classmethod
    def among(cls, name: str, known: "Iterable[str]") -> "RecipeNotFound":
        """No recipe `name` among `known`: suggest the closest one."""
        suggestion = _closest_then(name, known, cls.default_suggestion)
        return cls(f"no recipe named {name!r}", suggestion=suggestion)


class RunNotFound(UsageError):
    code = "RUN_NOT_FOUND"
    default_suggestion = "run `procler recipe runs` to see the recorded runs"


class RunNotRunning(UsageError):
    code = "RUN_NOT_RUNNING"
    default_suggestion = "`procler recipe status RUN_ID` shows how the run ended"


class RecipeRunning(AgentError):
    code = "RECIPE_RUNNING"
    exit_code = ExitCode.FINDINGS
    default_suggestion = "follow it with `procler recipe status RUN_ID` (its id is in data)"


class RecipeInterrupted(AgentError):
    code = "RECIPE_INTERRUPTED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = (
        "the supervisor stopped during the run: `procler recipe resume RUN_ID` goes on from "
        "the interrupted step (data.interrupted_step)"
    )


class RecipeFailed(AgentError):
    code = "RECIPE_FAILED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = (
        "read the failed step in data (exit code, last output), fix it, then run the recipe again"
    )


class RunNotResumable(UsageError):
    code = "RUN_NOT_RESUMABLE"
    default_suggestion = "only an interrupted run resumes; run the recipe again instead"


class StepNotIdempotent(AgentError):
    code = "STEP_NOT_IDEMPOTENT"
    exit_code = ExitCode.FINDINGS
    default_suggestion = (
        "check what the step did (its last output is in data), then resume with "
        "--skip-step ID (it completed) or --from-step ID (run it again)"
    )


class RecipeChanged(AgentError):
    code = "RECIPE_CHANGED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = "resume with --force to run the steps as they are defined now"


class SnippetNotFound(UsageError):
    code = "SNIPPET_NOT_FOUND"
    default_suggestion = "run `procler snippet list` to see the defined snippets"

    @classmethod
    def among(cls, name: str, known: "Iterable[str]") -> "SnippetNotFound":
        """No snippet `name` among `known`: suggest the closest one."""
        suggestion = _closest_then(name, known, cls.default_suggestion)
        return cls(f"no snippet named {name!r}", suggestion=suggestion)


class InvalidArgument(UsageError):
    code = "INVALID_ARGUMENT"
    default_suggestion = "run `procler snippet show NAME` to see its arguments and their types"


class ConfirmationRequired(UsageError):
    code = "CONFIRMATION_REQUIRED"
    default_suggestion = "read the command in data; pass --yes to run it"
