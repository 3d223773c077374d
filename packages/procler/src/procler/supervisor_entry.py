"""The supervisor process's entry: `python -m procler.supervisor_entry ROOT CONFIG_PATH`.

procler.cli.client starts it. It is where the two sides meet: it hands the command
declarations (procler.cli) to the supervisor, which never imports a CLI module.
"""

from procler.cli import APP
from procler.cli.processes import ANSWERED_FROM_ARGV
from procler.supervisor.main import main

if __name__ == "__main__":
    main(APP, ANSWERED_FROM_ARGV)
