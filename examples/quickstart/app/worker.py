"""A worker that fetches the API's items once a second."""

import json
import sys
import time
import urllib.request

URL = f"http://127.0.0.1:{sys.argv[1]}/items"
print("worker ready", flush=True)
while True:
    with urllib.request.urlopen(URL, timeout=5) as answer:
        items = json.load(answer)["items"]
    print(f"worker: {len(items)} items", flush=True)
    time.sleep(1)
