"""Procler's typed errors: each knows its code, exit code and default suggestion."""

from agentcli.errors import AgentError, ConditionNotMet, ExitCode, UsageError


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


class GroupNotFound(UsageError):
    code = "GROUP_NOT_FOUND"
    default_suggestion = "run `procler group list` to see the defined groups"


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


class Timeout(ConditionNotMet):
    code = "TIMEOUT"
    default_suggestion = "wait longer with --timeout, or check `procler status` and `procler logs`"


class DependencyFailed(AgentError):
    code = "DEPENDENCY_FAILED"
    exit_code = ExitCode.FINDINGS
    default_suggestion = "fix the blocking process named in data, then start again"


class StateDirUnwritable(UsageError):
    code = "STATE_DIR_UNWRITABLE"
    default_suggestion = "make the project's .procler/ directory writable by this user"


class SupervisorUnavailable(AgentError):
    code = "SUPERVISOR_UNAVAILABLE"
    exit_code = ExitCode.INTERNAL
    default_suggestion = (
        "read `procler daemon logs`, then retry; `procler daemon restart` starts a new one"
    )

    @classmethod
    def hung(cls, root: str, waited: float, taken: bool) -> "SupervisorUnavailable":
        """A supervisor that did not answer in time: say whether the command was carried
        out (only if it was taken: it drops a request whose deadline passed) and how to
        replace the supervisor."""
        from procler.project import lock_path, socket_path, supervisor_pid

        where = socket_path(root)
        replace = (
            f"it may be hung: `kill -9 {supervisor_pid(root) or 'PID'}` (the pid in "
            f"{lock_path(root)}); the next command starts a new supervisor, which brings the "
            "processes back"
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


class DockerUnavailable(AgentError):
    code = "DOCKER_UNAVAILABLE"
    exit_code = ExitCode.INTERNAL
    default_suggestion = "start the Docker engine (dockerd) or set DOCKER_HOST, then retry"


class ContainerNotFound(UsageError):
    code = "CONTAINER_NOT_FOUND"
    default_suggestion = "create the container first (docker ps -a lists them) or fix `container:`"


class ImageNotFound(UsageError):
    code = "IMAGE_NOT_FOUND"
    default_suggestion = (
        "build or load the image locally (docker images lists them); Procler never pulls"
    )


ALL_ERRORS: "tuple[type[AgentError], ...]" = (
    ConfigNotFound,
    ConfigExists,
    ConfigInvalid,
    ProcessNotFound,
    GroupNotFound,
    Conflict,
    PortInUse,
    StartFailed,
    Timeout,
    DependencyFailed,
    StateDirUnwritable,
    SupervisorUnavailable,
    DockerUnavailable,
    ContainerNotFound,
    ImageNotFound,
)
