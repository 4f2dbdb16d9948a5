#!/usr/bin/env python3
"""Territory scoring against GNU Go (issue 13).

For finished Japanese-rules games of ../shared/sgf-corpus/pro that end by
counting (RE with a margin), loads each game with `loadsgf` into Kosumi
(`kosumi-rules japanese`, then `final_score`) and into GNU Go
(`gnugo --mode gtp`, whose default rules are Japanese; `final_score`), and
counts the agreements with each other and with the record's RE.

Usage: .ci/territory-vs-gnugo.py [--games N] [--kosumi PATH] [--all]
Games: the first N (default 20) in path order of those with RU[Japanese]
and RE[B+x]/RE[W+x] (x > 0); --all takes every one.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "sgf-corpus", "pro")


class Gtp:
    def __init__(self, argv):
        self.p = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError("engine closed: " + line)
            if l.strip() == "" and out:
                break
            if l.strip() == "" and not out:
                continue
            out.append(l.rstrip("\n"))
        text = "\n".join(out)
        ok = text.startswith("=")
        return ok, text[1:].strip()

    def close(self):
        try:
            self.ask("quit")
        except Exception:
            pass
        self.p.wait(timeout=10)


def games(n, take_all):
    found = []
    for f in sorted(glob.glob(os.path.join(CORPUS, "**", "*.sgf"), recursive=True)):
        text = open(f, encoding="utf-8", errors="replace").read()
        if not re.search(r"RU\[\s*japanese\s*\]", text, re.I):
            continue
        m = re.search(r"RE\[\s*([BW])\+([0-9.]+)\s*\]", text)
        if not m or float(m.group(2)) <= 0:
            continue
        found.append((f, "%s+%g" % (m.group(1), float(m.group(2)))))
    return found if take_all else found[:n]


def norm(result):
    m = re.match(r"([BW])\+([0-9.]+)$", result.strip())
    if not m:
        return result.strip()
    return "%s+%g" % (m.group(1), float(m.group(2)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--kosumi", default=os.path.join(ROOT, "target", "release", "kosumi"))
    ap.add_argument("--gnugo", default="/usr/games/gnugo")
    args = ap.parse_args()
    todo = games(args.games, args.all)
    k = Gtp([args.kosumi, "gtp", "--threads", "1", "--seed", "1"])
    g = Gtp([args.gnugo, "--mode", "gtp"])
    both = with_re_k = with_re_g = 0
    winners_kg = 0
    for f, re_text in todo:
        rel = os.path.relpath(f, CORPUS)
        ok1, _ = k.ask("loadsgf " + f)
        ok2, _ = g.ask("loadsgf " + f)
        if not (ok1 and ok2):
            print("%s: loadsgf failed (kosumi %s, gnugo %s)" % (rel, ok1, ok2))
            continue
        k.ask("kosumi-rules japanese")
        _, ks = k.ask("final_score")
        _, gs = g.ask("final_score")
        ks, gs = norm(ks), norm(gs)
        same = ks == gs
        both += same
        with_re_k += ks == re_text
        with_re_g += gs == re_text
        winners_kg += ks[:1] == gs[:1]
        print("%-55s RE %-7s kosumi %-7s gnugo %-7s %s" % (rel, re_text, ks, gs, "=" if same else "DIFF"))
    k.close()
    g.close()
    n = len(todo)
    print(
        "games %d: kosumi = gnugo %d; kosumi = RE %d; gnugo = RE %d; same winner kosumi/gnugo %d"
        % (n, both, with_re_k, with_re_g, winners_kg)
    )


if __name__ == "__main__":
    sys.exit(main())
