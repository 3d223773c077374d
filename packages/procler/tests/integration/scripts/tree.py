"""A three-level process tree: this process, a child and a grandchild, all sleeping."""

import subprocess
import sys
import time

LEVEL = int(sys.argv[1]) if len(sys.argv) > 1 else 1
if LEVEL < 3:
    subprocess.Popen([sys.executable, __file__, str(LEVEL + 1)])
print(f"level {LEVEL} up", flush=True)
time.sleep(600)
