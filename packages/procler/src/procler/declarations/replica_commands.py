"""`procler scale` and `procler namespace ...`: their declarations (`namespace list`
reads the config where it is asked, procler.cli.replica_commands)."""

from agentcli.commands import Arg, Column, Command, Table, TableView
from procler.declarations.config import NOTES
from procler.declarations.processes import (
    FORWARD,
    FROM_DISK,
    IF_RUNNING,
    PROCESSES,
    STARTING,
    SUPERVISED,
)
from procler.errors import (
    ConfigInvalid,
    ConfigNotFound,
    DependencyFailed,
    NamespaceNotFound,
    NotReplicated,
    PermissionDenied,
    ProcessNotFound,
)

NAMESPACE = Arg("name", "namespace (or several, comma-separated)", required=True)
NAMESPACE_ERRORS = (*SUPERVISED, NamespaceNotFound, ProcessNotFound)
NAMESPACED = {
    **PROCESSES,
    "description": "adds namespaces; outside_namespaces and warning name the dependencies "
    "started outside them",
}

REPLICA_COMMANDS: "tuple[Command, ...]" = (
    Command(
        "scale",
        "run COUNT instances of a process with replicas (NAME-0 ... NAME-(COUNT-1)); scaling "
        "down stops the highest indices gracefully, in parallel; kept across reloads and "
        "supervisor restarts until the config's replicas value changes",
        FORWARD,
        destructive=True,
        args=(
            Arg("name", "process with `replicas:` in the config", required=True),
            Arg("count", "instances to run (1 to 1000)", type="integer", required=True),
            Arg(
                "--timeout",
                "give up waiting for new instances' health checks after this long",
                type="duration",
                default="60s",
            ),
        ),
        examples=("procler scale worker 4", "procler scale worker 1"),
        errors=(*SUPERVISED, *STARTING, ProcessNotFound, NotReplicated, DependencyFailed),
        output={
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "replicas": {"type": "integer"},
                "previous": {"type": "integer"},
                "added": {"type": "array"},
                "removed": {"type": "array"},
                "instances": {"type": "array", "description": "each instance's status"},
            },
        },
    ),
    Command(
        "namespace list",
        "the namespaces of the config, each with its processes",
        "procler.cli.replica_commands:namespace_list",
        read_only=True,
        examples=("procler namespace list",),
        errors=(ConfigNotFound, PermissionDenied, ConfigInvalid),
        output={"type": "object", "properties": {"namespaces": {"type": "array"}}},
        table=TableView(
            Table((Column("name"), Column("processes")), "namespaces", empty="no namespace"),
            notes=NOTES,
        ),
    ),
    Command(
        "namespace start",
        "start a namespace's processes after what they depend on (also outside it: named "
        "in the answer with a warning)",
        FORWARD,
        args=(NAMESPACE, Arg("--timeout", "bound on the start", type="duration", default="60s")),
        examples=("procler namespace start backend", "procler namespace start backend,jobs"),
        errors=(*NAMESPACE_ERRORS, *STARTING, DependencyFailed),
        output=NAMESPACED,
    ),
    Command(
        "namespace stop",
        "stop a namespace's processes, dependents first; one that a process of another "
        "namespace needs keeps running (listed under kept)",
        IF_RUNNING,
        destructive=True,
        args=(NAMESPACE,),
        examples=("procler namespace stop backend",),
        errors=(*NAMESPACE_ERRORS, *FROM_DISK),
        output={**PROCESSES, "description": "adds kept: each with needed_by"},
    ),
    Command(
        "namespace restart",
        "restart every process of a namespace (always a new run)",
        FORWARD,
        idempotent=False,
        args=(NAMESPACE, Arg("--timeout", "bound on the start", type="duration", default="60s")),
        examples=("procler namespace restart backend",),
        errors=(*NAMESPACE_ERRORS, *STARTING),
        output=PROCESSES,
    ),
)
