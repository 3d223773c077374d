"""How a status looks to a person: one style per status (rich's style words: a colour,
bold, dim), shared by the TUI's table and the commands' table view (`--format table`).

Plain dicts keyed by the statuses' names, so the declarations that name them stay cheap
to import; tests check the keys against procler.states and procler.recipe_states.
"""

PROCESS = {
    "stopped": "dim",
    "starting": "yellow",
    "running": "green",
    "healthy": "bold green",
    "unhealthy": "bold red",
    "stopping": "yellow",
    "exited": "cyan",
    "failed": "bold red",
    "backoff": "magenta",
    "scheduled": "blue",
    "mixed": "yellow",  # the roll-up of instances whose statuses differ
}
HEALTH = {"starting": "yellow", "healthy": "green", "unhealthy": "bold red", "stopped": "dim"}
# A recipe run's and its steps' statuses.
RECIPE = {
    "pending": "dim",
    "running": "yellow",
    "succeeded": "green",
    "failed": "bold red",
    "skipped": "dim",
    "interrupted": "magenta",
    "cancelled": "magenta",
}
