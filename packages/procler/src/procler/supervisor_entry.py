"""The supervisor process's entry: `python -m procler.supervisor_entry ROOT CONFIG_PATH`.

procler.cli.client starts it. It hands the command declarations (procler.declarations,
which both sides import) to the supervisor; nothing here or there imports procler.cli.
"""

from procler.declarations import APP
from procler.declarations.processes import ANSWERED_FROM_ARGV
from procler.supervisor.main import main

if __name__ == "__main__":
    main(APP, ANSWERED_FROM_ARGV)
