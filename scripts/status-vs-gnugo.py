#!/usr/bin/env python3
"""Kosumi's `final_status_list dead` and `seki` against GNU Go 3.8's on the
9x9 and 13x13 games of the SGF corpus that end with a scored result.

    scripts/status-vs-gnugo.py CACHE.json [KOSUMI COMMAND ...]

GNU Go's lists are read once into CACHE.json (about ten minutes; it reads
every game with `/usr/games/gnugo --mode gtp --chinese-rules`). With a
Kosumi command (`target/release/kosumi gtp --threads 1`), each game is
loaded into it too (`loadsgf`), and the games whose lists differ are
printed, then the totals. KOSUMI_CORPUS names the corpus (default
../shared/sgf-corpus)."""
import glob
import json
import os
import re
import subprocess
import sys

CORPUS = os.environ.get("KOSUMI_CORPUS", "../shared/sgf-corpus")
ASKS = ["final_status_list dead", "final_status_list seki"]


def scored(path):
    data = open(path, "rb").read()
    return re.search(rb"RE\[[BW]\+[0-9]", data) and re.search(rb"SZ\[(9|13)\]", data)


def lists(cmd, path):
    """The dead and seki lists of `cmd` for the game at `path`, or None."""
    lines = [f"loadsgf {path}"] + ASKS + ["quit"]
    try:
        out = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True,
                             text=True, timeout=900).stdout
    except subprocess.TimeoutExpired:
        return None
    resp = [r.strip() for r in out.split("\n\n")]
    if len(resp) < 3 or not all(r.startswith("=") for r in resp[:3]):
        return None
    return {"dead": sorted(set(resp[1][1:].split())), "seki": sorted(set(resp[2][1:].split()))}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    files = sorted(f for f in glob.glob(CORPUS + "/**/*.sgf", recursive=True) if scored(f))
    if not files:
        sys.exit(f"no scored 9x9 or 13x13 games under {CORPUS}")
    cache_path = sys.argv[1]
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    for f in files:
        key = os.path.relpath(f, CORPUS)
        if key not in cache:
            cache[key] = lists(["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"], f)
            json.dump(cache, open(cache_path, "w"))
    kosumi = sys.argv[2:]
    if not kosumi:
        return
    games = same_dead = same_seki = dead_diff = seki_diff = 0
    for f in files:
        g = cache.get(os.path.relpath(f, CORPUS))
        k = lists(kosumi, f) if g else None
        if not k:
            continue
        games += 1
        dd = set(g["dead"]) ^ set(k["dead"])
        ds = set(g["seki"]) ^ set(k["seki"])
        same_dead += not dd
        same_seki += not ds
        dead_diff += len(dd)
        seki_diff += len(ds)
        if dd or ds:
            print(f"{os.path.relpath(f, CORPUS)}: {len(dd)} dead and {len(ds)} seki stones differ",
                  flush=True)
    print(f"games {games}: the same dead list in {same_dead} ({dead_diff} stones differ), "
          f"the same seki list in {same_seki} ({seki_diff} stones differ)")


if __name__ == "__main__":
    main()
