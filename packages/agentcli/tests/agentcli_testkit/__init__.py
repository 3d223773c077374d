"""What agentcli's tests share, imported as a package (the test folders are on pytest's
pythonpath, see the root pyproject.toml): a small tool declared with agentcli
(sample_app), run in process and as a real console program (SAMPLE)."""

import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
# The sample tool as a console program, and the environment that lets it import itself.
SAMPLE = [sys.executable, "-m", "agentcli_testkit.sample_app"]
SAMPLE_ENV = {**os.environ, "PYTHONPATH": str(TESTS)}
