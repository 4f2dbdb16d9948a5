#!/usr/bin/env python3
"""Positions a second through GTP kata-analyze, for comparison with
`kosumi analyze`: replays the main line of an SGF record and, at each
position, runs `kata-analyze` until the root has VISITS visits (as a GTP
analysis client such as a review tool does), then sends the next move,
which stops the analysis. Prints positions, seconds and positions a second.

Usage: kata-analyze-speed.py KOSUMI SGF VISITS [kosumi options...]
"""
import re
import subprocess
import sys
import time


def main_line_moves(text):
    return re.findall(r";\s*([BW])\[([a-s]{0,2})\]", text)


def sgf_to_gtp(v, size):
    if v == "" or (v == "tt" and size <= 19):
        return "pass"
    cols = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    x, y = ord(v[0]) - 97, ord(v[1]) - 97
    return f"{cols[x]}{size - y}"


def main():
    kosumi, sgf, visits = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = open(sgf, encoding="utf-8", errors="replace").read()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    moves = main_line_moves(text)
    p = subprocess.Popen([kosumi, "--size", str(size), *sys.argv[4:]], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)

    def cmd(c):
        p.stdin.write(c + "\n")
        p.stdin.flush()

    def response():
        lines = []
        while True:
            line = p.stdout.readline()
            if line.strip() == "" and lines:
                return lines
            if line.strip():
                lines.append(line.strip())

    cmd(f"boardsize {size}")
    response()
    cmd("clear_board")
    response()
    t0 = time.time()
    positions = 0
    for i in range(len(moves) + 1):
        color = "b" if i == 0 or moves[i - 1][0] == "W" else "w"
        cmd(f"kata-analyze {color} 1 rootInfo true")
        first = p.stdout.readline()  # "="
        assert first.startswith("="), first
        while True:
            line = p.stdout.readline()
            m = re.search(r"rootInfo visits (\d+)", line)
            if m and int(m.group(1)) >= visits:
                break
        positions += 1
        if i == len(moves):
            cmd("name")
        else:
            c, v = moves[i]
            cmd(f"play {c} {sgf_to_gtp(v, size)}")
        # The rest of the analysis output, then the next response.
        while p.stdout.readline().strip() != "":
            pass
        response()
    took = time.time() - t0
    cmd("quit")
    p.wait()
    print(f"{positions} positions in {took:.1f} s: {positions / took:.2f} positions/s")


if __name__ == "__main__":
    main()
