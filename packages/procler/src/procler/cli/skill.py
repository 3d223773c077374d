"""Procler's Agent Skill: the hand-written part (when to use it, the tasks, Procler's own
rules), and the handler of `procler skills install`.

The workflows are help-llm's (procler.cli.guide.WORKFLOWS): one list for both guides.
Everything else in the skill is generated from the declarations by agentcli.skills; a test
parses every command line below with the real parser.
"""

from typing import Any

from agentcli.commands import Command
from agentcli.skills import Guide, Task, Workflow
from procler.cli.guide import WORKFLOWS

GUIDE = Guide(
    description=(
        "Run and supervise a project's development processes (web servers, workers, "
        "databases, migrations and other one-shots, scheduled jobs; local or in Docker "
        "containers) with Procler: start them in dependency order, wait until healthy, "
        "restart, read their logs, find out why one is not running. Use when the user asks "
        "to start, stop, restart or check the dev stack or a service, read its output, add "
        "a process, or set Procler up (.procler/config.yaml). Not for deploying to "
        "production (Procler can export compose, systemd or Kubernetes files instead) nor "
        "for one-off shell commands unrelated to the stack."
    ),
    compatibility="Needs the procler command. Linux or macOS; Docker only for container "
    "processes.",
    tasks=(
        Task("set Procler up here (.procler/config.yaml, commented)", ("procler config init",)),
        Task("check the config: every error with file:line:column and the shape expected (CONFIG_INVALID, exit 2)", ("procler config validate",)),
        Task("what the config runs, in which order, how health is checked, when it restarts; hints", ("procler config explain",)),
        Task("add a process without editing YAML (no-op if identical)",
             ("procler define api --command 'npm run dev' --cwd web --env PORT=3000",)),
        Task("define and start a command in one call (`--image IMG` runs it in a container)",
             ("procler run worker -- python worker.py",)),
        Task("start everything in dependency order and answer once ready: healthy, up 1 s, completed or scheduled (exit 1 naming what is not)",
             ("procler up --wait --timeout 60s",)),
        Task("start one process after its dependencies (a running one, and all else, left alone; a completed one-shot is not run again)",
             ("procler start api",)),
        Task("status, pid, restarts, last exit, health, memory, CPU; dependency_down: the root cause, with its path",
             ("procler status", "procler status api")),
        Task("why a process is or is not running (dependencies, last exit, restart budget, readiness and liveness)", ("procler why api",)),
        Task("answer a program that stops to ask (it needs `stdin: true`; STDIN_CLOSED names the key)",
             ("procler send api y",)),
        Task("wait for a condition instead of polling (exit 1 TIMEOUT)",
             ("procler wait api --for healthy --timeout 30s", "procler wait --all --for healthy --timeout 60s")),
        Task("restart after a code change (always a new run)", ("procler restart api --timeout 60s",)),
        Task("recent output, or why it failed last time",
             ("procler logs api --tail 100", "procler logs api --run last-failed --stream stderr")),
        Task("search output since a time", ("procler logs api --since 5m --grep ERROR",)),
        Task("how the last runs ended, health history, transitions", ("procler history api --limit 10",)),
        Task("run a one-off command in the project's environment (exit 1 if not 0)",
             ("procler exec 'alembic upgrade head' --timeout 60s",)),
        Task("apply an edited config as `up` of it would (started, armed, stopped; see it first with --dry-run)",
             ("procler reload --dry-run", "procler reload")),
        Task("stop one process (dependents_running: what still needs it) / everything, ending the session",
             ("procler stop api", "procler down")),
        Task("check in CI that the stack comes up, then stop it (exit 0 ready, 1 not)", ("procler ci --timeout 120s",)),
        Task("groups, recipes, snippets, schedules, namespaces",
             ("procler group start backend", "procler recipe run setup", "procler snippet run seed --arg count=10",
              "procler schedule list", "procler namespace start web")),
        Task("every command as an MCP tool over stdio", ("procler mcp",)),
        Task("stop every process and the supervisor", ("procler daemon stop",)),
    ),
    more_tasks=(
        Task("where the config is, or where `config init` would put it", ("procler config path",)),
        Task("the resolved config (vars substituted, defaults filled, paths absolute); where each value came from",
             ("procler config show", "procler config show --origins")),
        Task("merge config files (a later one over the earlier; .procler/config.local.yaml is merged last)",
             ("procler --config base.yaml --config mine.yaml up",)),
        Task("write a line to a process's stdin without a newline", ("procler send repl 'print(1)' --no-newline",)),
        Task("the JSON Schema of the config file", ("procler config schema",)),
        Task("drop a runtime definition (idempotent)", ("procler remove api",)),
        Task("list every process with its source (config or runtime)", ("procler list", "procler list --tag backend", "procler list --resolve")),
        Task("start only this process, not its dependencies", ("procler start api --no-deps",)),
        Task("run completed one-shots again (a session lasts until `down` or `daemon stop`)",
             ("procler up --rerun", "procler start migrate --rerun")),
        Task("stop a process and everything that depends on it", ("procler stop db --with-dependents",)),
        Task("restart with the stored output removed first", ("procler restart api --clear-logs",)),
        Task("define and start, keeping the definition even if the start fails", ("procler run worker --keep -- python worker.py",)),
        Task("wait until every member of a group is healthy", ("procler wait --group backend --for healthy --timeout 60s",)),
        Task("run N instances (`replicas:`; NAME-0 ... with PROCLER_REPLICA and PROCLER_PORT)", ("procler scale worker 4",)),
        Task("act on every instance of a process with replicas, or on one", ("procler restart worker", "procler restart worker-1")),
        Task("start only some namespaces (dependencies outside them start too, named in the answer)",
             ("procler up -n web,jobs",)),
        Task("the namespaces with their processes; start, stop, restart one",
             ("procler namespace list", "procler namespace stop web", "procler namespace restart web")),
        Task("status or list of one namespace", ("procler status --namespace web", "procler list --namespace web")),
        Task("stop, inspect and list groups", ("procler group stop backend", "procler group status backend", "procler group list")),
        Task("run a command in a container or folder", ("procler exec 'ls' --container db --cwd web",)),
        Task("the recipes; one as resolved", ("procler recipe list", "procler recipe show setup")),
        Task("see what a recipe would do, its steps played in order on a model of the stack, running nothing",
             ("procler recipe run setup --dry-run",)),
        Task("start a recipe run and get its run id at once", ("procler recipe run setup --detach",)),
        Task("a run's step records; the run history", ("procler recipe status RUN_ID", "procler recipe runs setup")),
        Task("continue an interrupted run: it lost its supervisor (RECIPE_INTERRUPTED; STEP_NOT_IDEMPOTENT: choose a step)",
             ("procler recipe resume RUN_ID --skip-step migrate", "procler recipe resume RUN_ID --from-step migrate")),
        Task("cancel a running recipe run", ("procler recipe cancel RUN_ID",)),
        Task("the output of a recipe's steps", ("procler logs --recipe setup",)),
        Task("the snippets; one with its typed arguments", ("procler snippet list --tag db", "procler snippet show seed")),
        Task("run a snippet that asks for confirmation (CONFIRMATION_REQUIRED without --yes)", ("procler snippet run reset --yes",)),
        Task("save or remove a snippet without editing YAML",
             ("procler snippet save seed --command 'python seed.py' --tag db", "procler snippet remove seed")),
        Task("stream new output as NDJSON for a while; its last line's cursor resumes it",
             ("procler logs api --follow --timeout 30s", "procler logs api --follow --after CURSOR")),
        Task("more than a page of output (an answer holds 10,000 lines or 4 MiB; then `more`)",
             ("procler logs api --tail 50000 --after CURSOR",)),
        Task("every process's output interleaved by time", ("procler logs --all",)),
        Task("a snapshot of every process, then buffered transitions (NDJSON, each with a seq)", ("procler events",)),
        Task("follow transitions and a process's output, resuming after a seq",
             ("procler events --follow --since 1234 --logs api --timeout 5m",)),
        Task("a schedule's newest runs; run one now; pause or arm it",
             ("procler schedule list nightly --runs 10", "procler schedule run-now nightly",
              "procler schedule pause nightly", "procler schedule resume nightly")),
        Task("whether the supervisor runs (never starts one); restart it; its own log",
             ("procler daemon status", "procler daemon restart", "procler daemon logs --tail 50")),
        Task("HTTP on 127.0.0.1 (REST, OpenAPI; the answer has a working curl example and what the token allows); read-only; with MCP at /mcp",
             ("procler serve --port 7765", "procler serve --read-only", "procler serve --mcp")),
        Task("accept another Host header; listen beyond loopback; close the listener",
             ("procler serve --allow-host dev.example", "procler serve --host 0.0.0.0 --allow-remote", "procler serve --stop")),
        Task("a one-time login URL for the web dashboard, for the person beside you", ("procler dashboard",)),
        Task("a terminal UI for the person beside you", ("procler tui",)),
        Task("the compose file the stack would become, with every field compose cannot carry",
             ("procler export compose --dry-run",)),
        Task("write compose, systemd or Kubernetes files (exit 1 and nothing written on a warning with --strict)",
             ("procler export compose -o deploy/ --strict", "procler export systemd -o units/", "procler export kubernetes -o deploy/k8s.yaml")),
        Task("bring a Procfile, a compose or process-compose file (with its override file) or a Procler 0.3 config in (see the YAML with --dry-run first)",
             ("procler import procfile Procfile --dry-run", "procler import compose compose.yaml --merge",
              "procler import process-compose process-compose.yaml --dry-run",
              "procler import procler03 old.yaml -o .procler/config.yaml")),
        Task("this skill in a project for Copilot, Claude Code and Codex", ("procler skills install --dry-run",)),
    ),
    rules=(
        "`SUPERVISOR_UNAVAILABLE` after a timeout means the command was not carried out, "
        "unless its message says the supervisor took it.",
        "An answer with `data.config_warning` was given on the last valid config: fix the "
        "errors it lists (file, line, column). Until then `reload` and starting a changed "
        "process answer `CONFIG_INVALID`; status, stop, down, list and logs keep working.",
        "Names: at most 128 letters, digits, `-` and `_`. `logs --grep` and log health checks "
        "use RE2 syntax. `${VAR}` works in every config value.",
        "`STATE_DIR_UNWRITABLE` means no supervisor can run until `.procler/state/` is writable; "
        "`PERMISSION_DENIED` that the project's state belongs to another user (named).",
    ),
    workflows=tuple(Workflow(goal, steps) for goal, steps in WORKFLOWS),
)  # fmt: skip


def skill_files() -> dict[str, dict[str, str]]:
    """Procler's skill: its name -> its files (path inside the skill folder -> text)."""
    from agentcli.skills import render
    from procler.declarations import APP

    return {APP.name: render(APP, GUIDE)}


def install(values: dict[str, Any], command: Command) -> dict[str, Any]:
    from agentcli.skill_install import install_skills, scope_of
    from procler.project import check_access

    scope, root = scope_of(values)
    if scope == "project":
        check_access(str(root))  # another user's project: PERMISSION_DENIED, as every command
    return install_skills(values, "procler", skill_files())
