"""Where a project's files live: config discovery and the state-directory layout.

Light on purpose (os only; errors are imported when raised): every command imports it.
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from procler.errors import SupervisorUnavailable

CONFIG_DIR = ".procler"
CONFIG_FILE = "config.yaml"
LOCAL_FILE = "config.local.yaml"  # personal overrides, merged last when present (not in git)
SOCKET_NAME = "supervisor.sock"
LOCK_NAME = "supervisor.lock"  # holds the supervisor's pid
# sun_path is 108 bytes on Linux; keep a margin for the terminating NUL.
MAX_SOCKET_PATH = 100
# Several config files are written as one text, as PATH is: `a.yaml:b.yaml` (merged in
# that order). So a config travels as one string (argv, the wire, PROCLER_CONFIG).
SEPARATOR = os.pathsep


def find_config(cwd: "str", explicit: "str | list[str] | None" = None) -> "str":
    """The config files named, as one text (see SEPARATOR): each --config (each may list
    several), else $PROCLER_CONFIG, else .procler/config.yaml walking up. The first one is
    the project's; `config_files` adds the project's config.local.yaml."""
    if isinstance(explicit, list):
        explicit = SEPARATOR.join(explicit)
    chosen = explicit or os.environ.get("PROCLER_CONFIG")
    if chosen:
        named = [
            os.path.abspath(os.path.join(cwd, part)) for part in chosen.split(SEPARATOR) if part
        ]
        for path in named:
            if not os.path.isfile(path):
                from procler.errors import ConfigNotFound

                raise ConfigNotFound(f"config file not found: {path}")
        if named:
            return SEPARATOR.join(named)
    here = os.path.abspath(cwd)
    while True:
        candidate = os.path.join(here, CONFIG_DIR, CONFIG_FILE)
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(here)
        if parent == here:
            from procler.errors import ConfigNotFound

            raise ConfigNotFound(f"no {CONFIG_DIR}/{CONFIG_FILE} in {cwd} or any parent directory")
        here = parent


def named_files(config: "str") -> "list[str]":
    """The files a config text names, in order."""
    return [part for part in config.split(SEPARATOR) if part]


def local_config(root: "str") -> "str":
    return os.path.join(root, CONFIG_DIR, LOCAL_FILE)


def config_files(config: "str") -> "list[str]":
    """Every file of a config, in merge order: those it names, then the project's
    .procler/config.local.yaml when it exists and is not named already."""
    files = named_files(config)
    local = local_config(project_root(config))
    if os.path.isfile(local) and all(os.path.realpath(f) != os.path.realpath(local) for f in files):
        files.append(local)
    return files


def project_root(config_path: "str") -> "str":
    """The directory holding .procler/ (or the config file's directory for a custom path);
    for several files, the first one's."""
    folder = os.path.dirname(os.path.abspath((named_files(config_path) or [config_path])[0]))
    if os.path.basename(folder) == CONFIG_DIR:
        return os.path.dirname(folder)
    return folder


def state_dir(root: "str") -> "str":
    """Runtime state of a project: database, logs, supervisor socket and lock."""
    return os.path.join(root, CONFIG_DIR, "state")


def make_state_dir(root: "str") -> "str":
    """Create the state directory with mode 0700 (it holds the captured environment and
    every process's output); one an older version made readable by others is tightened."""
    path = state_dir(root)
    os.makedirs(path, mode=0o700, exist_ok=True)
    if os.stat(path).st_mode & 0o077:
        try:  # noqa: SIM105 - contextlib would be one more import on every command
            os.chmod(path, 0o700)
        except OSError:
            pass  # not ours to change (or immutable): check_state_writable says so
    return path


def check_state_writable(root: "str") -> "None":
    """Refuse at once (STATE_DIR_UNWRITABLE) when a supervisor could not keep its state here:
    it would die binding its socket or opening its database, and each command spawn another."""
    from procler.errors import StateDirUnwritable

    path = state_dir(root)
    try:
        make_state_dir(root)
    except OSError as exc:
        raise StateDirUnwritable(
            f"cannot create the state directory {path}: {exc.strerror}",
            suggestion=f"make {os.path.dirname(path)} writable by this user, then retry",
        ) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise StateDirUnwritable(
            f"the state directory {path} is not writable: no supervisor can run here",
            suggestion=f"make {path} writable by this user (and not immutable), then retry",
        )


def open_private(path: "str", flags: "int") -> "int":
    """Open a state file, creating it with mode 0600 (never readable by other users)."""
    return os.open(path, flags | os.O_CREAT | os.O_CLOEXEC, 0o600)


def open_lock(root: "str") -> "int":
    """A descriptor of what the single-instance lock is taken on (flock): the project
    directory itself, which no `git clean` of its contents can remove under a holder."""
    return os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def lock_path(root: "str") -> "str":
    """The supervisor's single-instance lock; it holds the supervisor's pid."""
    return os.path.join(state_dir(root), LOCK_NAME)


def supervisor_pid(root: "str") -> "str | None":
    """The pid written in the lock by the last supervisor, as text (None if unreadable)."""
    try:
        with open(lock_path(root)) as handle:
            return handle.read().strip() or None
    except OSError:
        return None


def hung_supervisor(root: "str", waited: "float", taken: "bool") -> "SupervisorUnavailable":
    """The error for a supervisor that did not answer within `waited` seconds (`taken`:
    its headers came, so it had started on the request), naming its pid."""
    from procler.errors import SupervisorUnavailable

    return SupervisorUnavailable.hung(
        socket_path(root), supervisor_pid(root), lock_path(root), waited, taken
    )


def socket_path(root: "str") -> "str":
    """The supervisor's unix socket; under runtime_dir() when the natural one is too long.

    Decided on the real path, so that the project reached through a symlink finds the
    same socket whichever way it is named.
    """
    real = os.path.realpath(root)
    natural = os.path.join(state_dir(real), SOCKET_NAME)
    if len(natural.encode()) <= MAX_SOCKET_PATH:
        return natural
    import hashlib

    base = runtime_dir()
    if os.path.lexists(base):
        private_dir(base)  # someone else's directory could hold an impostor socket
    digest = hashlib.sha256(real.encode()).hexdigest()[:16]
    return os.path.join(base, f"{digest}.sock")


def runtime_dir() -> "str":
    """Where the sockets of deeply nested projects live: one directory per user.

    Not $XDG_RUNTIME_DIR: an agent's shell often lacks it while a login shell has it,
    and both must find the same socket.
    """
    return f"/tmp/procler-{os.getuid()}"


def private_dir(path: "str") -> "None":
    """Make path this user's private directory, or refuse one that another user could
    change (the name in /tmp is predictable)."""
    import stat

    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        from procler.errors import StateDirUnwritable

        raise StateDirUnwritable(
            f"cannot create {path}: {exc.strerror}",
            suggestion=f"make {os.path.dirname(path)} writable by this user",
        ) from None
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        from procler.errors import StateDirUnwritable

        raise StateDirUnwritable(
            f"{path} is not a directory only this user can use",
            suggestion=f"remove {path} (procler recreates it with mode 0700)",
        )


def recipe_log_name(recipe: str) -> str:
    """The log store's name for a recipe's step output (no process name holds a dot)."""
    return f"recipe.{recipe}"
