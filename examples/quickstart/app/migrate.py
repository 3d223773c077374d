"""A stand-in migration: creates the data file the API serves, then exits 0."""

import json
import pathlib
import time

time.sleep(0.2)
data = pathlib.Path(__file__).parent / "data.json"
data.write_text(json.dumps({"items": ["alpha", "beta", "gamma"]}))
print(f"migrated: wrote {data.name}")
