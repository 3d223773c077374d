"""Where a project's files live: config discovery and the state-directory layout.

Light on purpose (os only; errors are imported when raised): every command imports it.
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from procler.errors import SupervisorUnavailable

    T = TypeVar("T")

CONFIG_DIR = ".procler"
CONFIG_FILE = "config.yaml"
LOCAL_FILE = "config.local.yaml"  # personal overrides, merged last when present (not in git)
SOCKET_NAME = "supervisor.sock"
LOCK_NAME = "supervisor.lock"  # holds the supervisor's pid
# sun_path is 108 bytes on Linux; keep a margin for the terminating NUL. A longer path is
# reached through /proc/self/fd (at_socket).
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
            check_access(project_root(named[0]))  # the project is the first file's
            return SEPARATOR.join(named)
    here = os.path.abspath(cwd)
    while True:
        candidate = os.path.join(here, CONFIG_DIR, CONFIG_FILE)
        if os.path.isfile(candidate):
            check_access(project_root(candidate))
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


def check_access(root: "str") -> "None":
    """Refuse at once (PERMISSION_DENIED) a project whose state another user keeps: its
    state directory is private to its owner (0700), so every command would fail somewhere
    inside (a socket, a database, a log) on a permission error."""
    state = state_dir(root)
    try:
        if os.access(state, os.R_OK | os.W_OK | os.X_OK) or not os.path.lexists(state):
            return  # ours, or none yet (creating it says STATE_DIR_UNWRITABLE if it can't)
        owner = os.stat(state).st_uid
    except OSError:  # .procler itself cannot be searched
        owner = os.stat(os.path.dirname(state)).st_uid
    if owner == os.geteuid():
        return  # ours but closed (immutable, a mode): creating in it says STATE_DIR_UNWRITABLE
    import pwd

    from procler.errors import PermissionDenied

    try:
        name = pwd.getpwuid(owner).pw_name
    except KeyError:
        name = f"uid {owner}"
    raise PermissionDenied(
        f"the project's state {state} belongs to {name}: only that user can run Procler "
        "commands in this project",
        suggestion=f"run the command as {name} (e.g. `sudo -u {name} procler ...`), or work in "
        "a copy of the project of your own",
    )


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
    """The supervisor's unix socket, always in the project's own state directory.

    Decided on the real path, so that the project reached through a symlink finds the
    same socket whichever way it is named. A path too long for a socket address is
    reached through a descriptor of its folder (`at_socket`), never moved to a shared
    place such as /tmp, where another user could take its name first.
    """
    real = os.path.realpath(root)
    return os.path.join(state_dir(real), SOCKET_NAME)


def at_socket(path: "str", act: "Callable[[str], T]") -> "T":
    """act(address) for a bind or connect of the socket at `path`: the path itself when it
    fits sun_path (108 bytes), else `/proc/self/fd/N/NAME`, where N is a descriptor of its
    folder, open only for the call (the kernel resolves it to the folder itself)."""
    if len(path.encode()) <= MAX_SOCKET_PATH:
        return act(path)
    folder = os.open(os.path.dirname(path), os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        return act(f"/proc/self/fd/{folder}/{os.path.basename(path)}")
    finally:
        os.close(folder)


def recipe_log_name(recipe: str) -> str:
    """The log store's name for a recipe's step output (no process name holds a dot)."""
    return f"recipe.{recipe}"
