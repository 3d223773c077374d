"""Turn one checked `processes.NAME` mapping into a ProcessSpec: substitute, resolve, default."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from agentcli.errors import AgentError
from agentcli.files import read_regular_text
from procler.config.build_watch import build_watch
from procler.config.dotenv import MAX_ENV_FILE_BYTES, DotenvError, is_plain, parse_dotenv
from procler.config.findings import Findings, child, item
from procler.config.model import (
    Backoff,
    ContainerSpec,
    DaemonSpec,
    Dependency,
    EnvFile,
    HealthCheck,
    HttpProbe,
    ProcessSpec,
    RestartPolicy,
    StopCommand,
    TcpProbe,
    instance_name,
)
from procler.config.replicas import instance_port, instance_vars
from procler.config.schedule_keys import schedule_of
from procler.config.specs import INVALID
from procler.config.substitute import SubstitutionError, substitute
from procler.contexts import registry
from procler.patterns import SYNTAX_HINT, PatternError, compile_pattern

_STATUS = re.compile(r"([1-5][0-9][0-9])(?:\s*-\s*([1-5][0-9][0-9]))?")
_NAMESPACE = re.compile(r"[^\s,]{1,128}")


def given(raw: Any, *keys: str) -> dict[str, Any]:
    """The keys of a checked mapping that are present and valid (absent ones keep defaults)."""
    if not isinstance(raw, dict):
        return {}
    return {k: raw[k] for k in keys if k in raw and raw[k] is not INVALID}


class ProcessBuilder:
    """Builds ProcessSpecs, recording findings at the YAML path of each bad value."""

    def __init__(self, root: str, findings: Findings, lookup: Callable[[str], str | None]) -> None:
        self.root = root
        self.findings = findings
        self.lookup = lookup

    def sub(self, path: str, text: str) -> str:
        try:
            return substitute(text, self.lookup)
        except SubstitutionError as exc:
            self.findings.add(path, exc.message, exc.suggestion)
            return text

    def path_of(self, path: str, text: str) -> str:
        """A path from the config, absolute: relative ones resolve against the project root."""
        resolved = os.path.expanduser(self.sub(path, text))
        return os.path.normpath(os.path.join(self.root, resolved))

    def directory_of(self, path: str, text: str) -> str:
        """A working directory from the config, absolute. One that exists must be a
        directory: a file there (`cwd: /etc/passwd`) would fail every start of the process.
        One that does not exist yet is left to the start, which says so."""
        resolved = self.path_of(path, text)
        if os.path.exists(resolved) and not os.path.isdir(resolved):
            self.findings.add(
                path,
                f"cwd {resolved} is not a directory",
                "point cwd at a directory (a relative one resolves against the project root)",
            )
        return resolved

    def build(self, name: str, raw: dict[str, Any], replica: int | None = None) -> ProcessSpec:
        """The spec of process `name`, or of its instance `replica` (this builder's lookup
        then defines the instance's variables, see procler.config.replicas)."""
        base = child("processes", name)

        def at(key: str) -> str:
            return child(base, key)

        fields: dict[str, Any] = given(
            raw,
            "description",
            "stop_timeout",
            "context",
            "stop_signal",
            "ready_log_line",
            "max_memory",
            "schedule",
            "autostart",
            "stdin",
        )
        if "command" in given(raw, "command"):
            fields["command"] = self.sub(at("command"), raw["command"])
        if isinstance(raw.get("args"), list):
            args = raw["args"]
            fields["args"] = tuple(
                self.sub(item(at("args"), i), a) for i, a in enumerate(args) if a is not INVALID
            )
        cwd = given(raw, "cwd").get("cwd")
        fields["cwd"] = self.root if cwd is None else self.directory_of(at("cwd"), cwd)
        fields["env"], fields["env_files"] = self._env(base, raw)
        for key in ("tags", "ports", "success_exit_codes"):
            if isinstance(raw.get(key), list):
                fields[key] = tuple(v for v in raw[key] if v is not INVALID)
        fields["namespaces"] = self._namespaces(base, raw)
        if replica is not None:
            fields.update(self._replica(name, raw, replica, fields))
            name = instance_name(name, replica)
        else:
            for key in ("port_base", "port_step"):
                if key in raw:
                    self.findings.warn(
                        child(base, key), f"{key} is read only with replicas", "add replicas: N"
                    )
        self._stop(base, raw, fields)
        if "restart" in given(raw, "restart"):
            fields["restart"] = self._restart(at("restart"), raw["restart"])
        settings = self._container(base, raw, fields.get("context", "local"))
        if settings is not None:
            fields["container_spec"] = settings
        if fields.get("stdin") and not registry.kind(fields.get("context", "local")).on_host:
            self.findings.add(
                at("stdin"),
                "stdin: true is for local processes (a container's stdin is not kept open)",
                "remove stdin, or run the process with context: local",
            )
        for check in ("healthcheck", "liveness"):  # readiness, liveness
            if check in given(raw, check):
                ports = fields.get("ports", ())
                fields[check] = self._healthcheck(at(check), raw[check], ports)
        daemon = self._daemon(base, raw, fields["cwd"])
        if daemon is not None:
            fields["daemon"] = daemon
        self._schedule(base, raw, fields)
        if "watch" in given(raw, "watch"):
            fields["watch"] = build_watch(self.sub, self.findings, at("watch"), raw["watch"])
        export_image = given(given(raw, "export").get("export"), "image").get("image")
        if export_image is not None:
            fields["export_image"] = self.sub(child(child(base, "export"), "image"), export_image)
        if "max_memory" in fields:
            self.findings.warn(
                child(base, "max_memory"),
                "max_memory: the whole process tree's resident memory is sampled every 2 s; "
                "two samples in a row above the limit restart it (a single spike is forgiven)",
                "nothing to change; last_exit.reason says max_memory after such a restart",
            )
        if isinstance(raw.get("depends_on"), list):
            fields["depends_on"] = tuple(
                Dependency(**given(d, "name", "condition", "restart", "min"))
                if isinstance(d, dict)
                else Dependency(d)
                for d in raw["depends_on"]
                if d is not INVALID and (not isinstance(d, dict) or "name" in given(d, "name"))
            )
        return ProcessSpec(name=name, source="config", **fields)

    def _env(
        self, base: str, raw: dict[str, Any]
    ) -> tuple[tuple[tuple[str, str], ...], tuple[EnvFile, ...]]:
        """The resolved environment, and the env files it was read from."""
        env: dict[str, str] = {}
        env_files: list[EnvFile] = []
        files = raw.get("env_file")
        for i, entry in enumerate(files if isinstance(files, list) else []):
            if entry is INVALID:
                continue
            where = item(child(base, "env_file"), i)
            path = self.path_of(where, entry)
            try:  # a pipe (/dev/stdin) or a device (/dev/zero) is refused, never read
                text = read_regular_text(path, MAX_ENV_FILE_BYTES, f"env_file {path}")
                pairs = parse_dotenv(text)
                env.update(pairs)
                env_files.append(EnvFile(path, tuple(pairs), is_plain(text)))
            except FileNotFoundError:
                self.findings.add(where, f"env_file not found: {path}", "create it or fix the path")
            except AgentError as exc:  # not a regular file, or too large: a finding
                self.findings.add(where, exc.message, "name a regular file of KEY=VALUE lines")
            except (OSError, UnicodeDecodeError, DotenvError) as exc:
                self.findings.add(where, f"cannot read env_file {path}: {exc}", "fix the file")
        values = raw.get("env")
        for key, value in (values if isinstance(values, dict) else {}).items():
            if value is not INVALID:
                env[key] = self.sub(child(child(base, "env"), key), value)
        return tuple(env.items()), tuple(env_files)

    def _stop(self, base: str, raw: dict[str, Any], fields: dict[str, Any]) -> None:
        """`stop_command:` (a command, or {command, timeout}); process-compose's
        `shutdown: {command, timeout, signal}` is read as stop_command and stop_signal
        (its timeout without a command as stop_timeout)."""
        at = child(base, "stop_command")
        written = given(raw, "stop_command").get("stop_command")
        shutdown = given(raw, "shutdown").get("shutdown")
        if shutdown is not None and "stop_command" in raw:
            self.findings.add(
                child(base, "shutdown"),
                "stop_command and shutdown both say how the process stops",
                "keep stop_command (shutdown is process-compose's spelling of it)",
            )
        elif shutdown is not None:
            at = child(base, "shutdown")
            for key, ours in (("signal", "stop_signal"), ("timeout", "stop_timeout")):
                if key not in given(shutdown, key) or (key == "timeout" and "command" in shutdown):
                    continue
                if ours in raw:
                    self.findings.add(
                        child(at, key),
                        f"shutdown.{key} and {ours} say the same thing",
                        f"keep {ours}",
                    )
                else:
                    fields[ours] = shutdown[key]
            if "command" in given(shutdown, "command"):
                written = given(shutdown, "command", "timeout")
        if written is None:
            return
        if isinstance(written, str):
            fields["stop_command"] = StopCommand(self.sub(at, written))
        elif "command" in given(written, "command"):
            command = self.sub(child(at, "command"), written["command"])
            fields["stop_command"] = StopCommand(command, given(written, "timeout").get("timeout"))

    def _namespaces(self, base: str, raw: dict[str, Any]) -> tuple[str, ...]:
        listed = [n for n in given(raw, "namespace").get("namespace", []) if n is not INVALID]
        for index, namespace in enumerate(listed):
            if not _NAMESPACE.fullmatch(namespace):
                self.findings.add(
                    item(child(base, "namespace"), index),
                    f"invalid namespace {namespace!r}",
                    "use at most 128 characters, without spaces or commas",
                )
        return tuple(dict.fromkeys(listed)) or ("default",)

    def _replica(
        self, name: str, raw: dict[str, Any], index: int, fields: dict[str, Any]
    ) -> dict[str, Any]:
        """What an instance adds: its variables in env, its port first in ports."""
        own = instance_vars(raw, index)
        port = instance_port(raw, index)
        ports = fields.get("ports", ())
        return {
            "replica_of": name,
            "replica": index,
            "env": (*fields["env"], *own.items()),
            "ports": ports if port is None or port in ports else (port, *ports),
        }

    def _restart(self, path: str, raw: Any) -> RestartPolicy:
        if isinstance(raw, str):
            return RestartPolicy(policy=raw)  # type: ignore[arg-type]  # checked by the schema
        fields = given(raw, "policy", "max_restarts")
        if "backoff" in given(raw, "backoff"):
            backoff = Backoff(**given(raw["backoff"], "initial", "max", "reset_after"))
            if backoff.initial > backoff.max:
                self.findings.add(
                    child(child(path, "backoff"), "initial"),
                    f"backoff initial ({backoff.initial:g}s) is longer than max ({backoff.max:g}s)",
                    "make initial at most max",
                )
            fields["backoff"] = backoff
        return RestartPolicy(**fields)

    def _container(self, base: str, raw: dict[str, Any], context: str) -> ContainerSpec | None:
        """A container context's settings, under the key of its name (`docker:`, `podman:`);
        the settings of another context are an error."""
        if "container" in raw:  # Procler 0.3: `container:` beside `context: docker`
            return self._seed_container(base, raw, context)
        containers = registry.in_containers()
        for other in containers:
            if other != context and other in given(raw, other):
                self.findings.add(
                    child(base, other),
                    f"{other} settings need `context: {other}`",
                    f"add `context: {other}` to this process, or remove `{other}:`",
                )
        if context not in containers:
            if "command" not in raw and "args" not in raw:
                self.findings.add(base, "a process needs `command` or `args`", "add command: ...")
            return None
        if context not in given(raw, context):
            if context not in raw:
                self.findings.add(
                    child(base, "context"),
                    f"context {context} needs a `{context}:` mapping",
                    f"add {context}: {{image: NAME}} or {context}: {{container: NAME}}",
                )
            return None
        settings = raw[context]
        fields = given(settings, "image", "container", "network_mode")
        if isinstance(settings.get("volumes"), list):
            fields["volumes"] = tuple(v for v in settings["volumes"] if v is not INVALID)
        return ContainerSpec(**fields)

    def _seed_container(self, base: str, raw: dict[str, Any], context: str) -> ContainerSpec | None:
        containers = registry.in_containers()
        if context in containers and context in raw:
            self.findings.add(
                child(base, "container"),
                f"`container` and `{context}:` both say where the process runs",
                f"keep one: container: NAME (Procler 0.3) or {context}: {{container: NAME}}",
            )
        elif context not in containers:
            self.findings.add(
                child(base, "container"),
                f"`container` needs a container context ({', '.join(containers)})",
                f"add `context: {registry.CONTAINER_DEFAULT}` to this process, or remove "
                "`container`",
            )
        container = given(raw, "container").get("container")
        if container is None:
            return None
        return ContainerSpec(container=self.sub(child(base, "container"), container))

    def _daemon(self, base: str, raw: dict[str, Any], cwd: str) -> DaemonSpec | None:
        """Procler 0.3's daemon keys, with its rules: daemon_mode needs a way to find the
        daemon, adopt_existing needs daemon_mode."""
        fields = given(raw, "daemon_match_pattern", "daemon_pidfile", "daemon_container")
        mode = given(raw, "daemon_mode").get("daemon_mode", False)
        adopt = given(raw, "adopt_existing").get("adopt_existing", False)
        if adopt and not mode:
            self.findings.add(
                child(base, "adopt_existing"),
                "adopt_existing needs daemon_mode: true",
                "add daemon_mode: true (with daemon_pidfile or daemon_match_pattern)",
            )
        if not mode:
            for key in fields:
                self.findings.warn(
                    child(base, key),
                    f"{key} is read only with daemon_mode: true",
                    "add daemon_mode: true, or remove the key",
                )
            return None
        if "daemon_match_pattern" not in fields and "daemon_pidfile" not in fields:
            self.findings.add(
                child(base, "daemon_mode"),
                "daemon_mode needs daemon_pidfile or daemon_match_pattern to find the daemon",
                "add daemon_pidfile: PATH (or daemon_match_pattern: REGEX)",
            )
        self.findings.warn(
            child(base, "daemon_mode"),
            "daemon_mode: Procler waits up to 5 s after the command exits 0 for the daemon "
            "to appear, then follows it (status shows its pid); a command that exits non-zero, "
            "or leaves no daemon, fails",
            "nothing to change if that is what the command does",
        )
        if "daemon_pidfile" in fields:
            pidfile = self.sub(child(base, "daemon_pidfile"), fields["daemon_pidfile"])
            fields["daemon_pidfile"] = os.path.normpath(os.path.join(cwd, pidfile))
        return DaemonSpec(
            match_pattern=fields.get("daemon_match_pattern"),
            pidfile=fields.get("daemon_pidfile"),
            container=fields.get("daemon_container"),
            adopt_existing=adopt,
        )

    def _schedule(self, base: str, raw: dict[str, Any], fields: dict[str, Any]) -> None:
        """`schedule:` as a typed Schedule; a schedule fires one run at a time, so it
        cannot have replicas, and the next slot (not the restart policy) is its retry."""
        if "schedule" not in given(raw, "schedule"):
            return
        schedule = schedule_of(raw["schedule"])
        if schedule is None:
            return
        fields["schedule"] = schedule
        if "restart" in raw:
            self.findings.warn(
                child(base, "restart"),
                "restart is not applied to scheduled runs: the next slot runs it again",
                "remove restart, or give the schedule a shorter interval",
            )

    def _healthcheck(self, path: str, raw: dict[str, Any], ports: tuple[int, ...]) -> HealthCheck:
        raw = self._seed_probe(path, raw)
        fields = given(
            raw,
            "log",
            "interval",
            "timeout",
            "retries",
            "successes",
            "start_period",
            "restart_on_unhealthy",
        )
        kinds = [k for k in ("exec", "http", "tcp", "log") if k in raw]
        kind = kinds[0] if kinds else "exec"
        if "exec" in given(raw, "exec"):
            fields["exec"] = self.sub(child(path, "exec"), raw["exec"])
        if "log" in fields:
            fields["log"] = self._pattern(child(path, "log"), fields["log"])
        if "http" in given(raw, "http"):
            fields["http"] = self._http(child(path, "http"), raw["http"], ports)
        if "tcp" in given(raw, "tcp"):
            tcp = given(raw["tcp"], "host", "port")
            if "host" in tcp:
                tcp["host"] = self.sub(child(child(path, "tcp"), "host"), tcp["host"])
            if "port" not in tcp:
                tcp["port"] = self._default_port(child(path, "tcp"), ports)
            fields["tcp"] = TcpProbe(**tcp)
        return HealthCheck(kind=kind, **fields)  # type: ignore[arg-type]  # kind checked above

    def _seed_probe(self, path: str, raw: dict[str, Any]) -> dict[str, Any]:
        """Procler 0.3's probes as ours: test -> exec, http_get -> http.url, tcp_socket -> tcp."""
        out = dict(raw)
        if "test" in out:
            out["exec"] = out.pop("test")
        if "http_get" in out:
            url = out.pop("http_get")
            out["http"] = INVALID if url is INVALID else {"url": url}
        if "tcp_socket" in out:
            address = out.pop("tcp_socket")
            out["tcp"] = INVALID if address is INVALID else self._address(path, address)
        return out

    def _address(self, path: str, text: str) -> Any:
        host, _, port = self.sub(child(path, "tcp_socket"), text).rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            self.findings.add(
                child(path, "tcp_socket"),
                f"tcp_socket {text!r} is not HOST:PORT",
                "write e.g. tcp_socket: localhost:5432",
            )
            return INVALID
        return {"host": host.strip("[]"), "port": int(port)}

    def _http(self, path: str, raw: dict[str, Any], ports: tuple[int, ...]) -> HttpProbe:
        fields = given(raw, "method")
        if "url" in given(raw, "url"):
            url = self.sub(child(path, "url"), raw["url"])
        else:
            port = given(raw, "port").get("port") or self._default_port(path, ports)
            route = self.sub(child(path, "path"), str(given(raw, "path").get("path", "/")))
            url = f"http://127.0.0.1:{port}{route if route.startswith('/') else '/' + route}"
        if "expect_status" in given(raw, "expect_status"):
            match = _STATUS.fullmatch(raw["expect_status"].strip())
            if match:
                low, high = int(match.group(1)), int(match.group(2) or match.group(1))
                fields["expect_status"] = (low, high)
            else:
                self.findings.add(
                    child(path, "expect_status"),
                    f"invalid status range {raw['expect_status']!r}",
                    "write a code (200) or a range (200-399)",
                )
        if "headers" in given(raw, "headers"):
            at = child(path, "headers")
            fields["headers"] = tuple(
                (k, self.sub(child(at, k), v))
                for k, v in raw["headers"].items()
                if v is not INVALID
            )
        return HttpProbe(url=url, **fields)

    def _pattern(self, path: str, text: str) -> str:
        """The log pattern with vars substituted, checked again (a value can break it)."""
        resolved = self.sub(path, text)
        if resolved != text:
            try:
                compile_pattern(resolved)
            except PatternError as exc:
                self.findings.add(
                    path,
                    f"invalid regular expression {resolved!r} (after substitution): {exc}",
                    f"fix the pattern or the variable ({SYNTAX_HINT})",
                )
        return resolved

    def _default_port(self, path: str, ports: tuple[int, ...]) -> int:
        if ports:
            return ports[0]
        self.findings.add(path, "no port to probe", "give the probe a port, or declare `ports:`")
        return 0
