"""The example subprocess authorizer (a correct one), made to misbehave on request, so that
the kit's handling of a faulty adapter is tested apart from any divergence.

    python faulty_server.py MODE [N]

* ``crash-every N``: exits with code 3 at every N-th ``authorize`` a process receives;
* ``hang-after N``: stops answering after N ``authorize`` requests;
* ``half-line``: at the first ``authorize``, writes half a response line and stops;
* ``helper``: at start-up starts a helper process in a session of its own (``setsid``),
  writes the helper's pid to the file named by ``$FAULTY_HELPER_PIDS``, then behaves;
* ``huge-error``: answers the first ``authorize`` with a 5 MB error message that starts with
  terminal escape sequences (it retitles the window and clears the screen);
* ``ok``: behaves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples" / "python_subprocess"))

from my_authorizer_server import KafkaStyle, Server

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def main() -> None:
    if MODE == "helper":
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
        with open(os.environ["FAULTY_HELPER_PIDS"], "a", encoding="utf-8") as pids:
            pids.write(f"{helper.pid}\n")
    server, out, authorizes = Server(), sys.stdout, 0
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request["op"] == "authorize":
            authorizes += 1
            if MODE == "crash-every" and authorizes % N == 0:
                print("faulty: crashing on purpose", file=sys.stderr, flush=True)
                os._exit(3)
            if MODE == "huge-error":
                message = "\x1b]0;pwned\x07\x1b[2J\r" + "x" * 5_000_000
                out.write(json.dumps({"id": request["id"], "error": {"kind": "no-such-kind", "message": message}}) + "\n")
                out.flush()
                continue
            if (MODE == "hang-after" and authorizes > N) or MODE == "half-line":
                if MODE == "half-line":
                    out.write('{"id": ' + str(request["id"]) + ', "resu')
                    out.flush()
                while True:
                    time.sleep(1)
        try:
            response = {"id": request["id"], "result": server.handle(request)}
        except KafkaStyle as exc:
            response = {"id": request["id"], "error": exc.error}
        out.write(json.dumps(response) + "\n")
        out.flush()
        if request["op"] == "shutdown":
            return


if __name__ == "__main__":
    main()
