#!/usr/bin/env python3
"""A client of KataGo's JSON analysis protocol, written from KataGo's
docs/Analysis_Engine.md alone, driving `kosumi analysis`.

Usage: analysis_client.py PATH/TO/kosumi

Checks every query field Kosumi supports, the actions, answers out of
order, reportDuringSearchEvery, terminate, and malformed queries (each
answered with an error naming the field, the engine still serving the
next query). Exits 0 when every check passes; prints what failed otherwise.
Every search has a fixed maxVisits and the engine a fixed seed; nothing
here measures time (the deadlines only keep a broken engine from hanging
the test).
"""

import json
import queue
import subprocess
import sys
import threading

EXTRA = []  # options added to every engine (for trying the checks out)
DEADLINE = 300  # seconds to wait for any one line before calling it a hang


class Engine:
    def __init__(self, binary, *args):
        self.proc = subprocess.Popen(
            [binary, "analysis", "--seed", "7", *args, *EXTRA],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.seen = []  # every response, in arrival order
        self.pending = []  # read but not yet taken by expect()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, obj_or_text):
        text = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
        assert "\n" not in text
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def expect(self, pred, what):
        """The first response (seen or coming) for which pred holds."""
        for i, r in enumerate(self.pending):
            if pred(r):
                return self.pending.pop(i)
        while True:
            try:
                line = self.lines.get(timeout=DEADLINE)
            except queue.Empty:
                raise AssertionError(f"no response: {what}")
            if line is None:
                raise AssertionError(f"engine closed its output before: {what}")
            r = json.loads(line)  # every line must be JSON
            self.seen.append(r)
            if pred(r):
                return r
            self.pending.append(r)

    def final(self, qid, turn=None):
        return self.expect(
            lambda r: r.get("id") == qid
            and "error" not in r
            and "warning" not in r
            and r.get("isDuringSearch") is False
            and (turn is None or r.get("turnNumber") == turn),
            f"final response of {qid} turn {turn}",
        )

    def close(self):
        self.proc.stdin.close()
        rest = []
        while True:
            line = self.lines.get(timeout=DEADLINE)
            if line is None:
                break
            rest.append(json.loads(line))
        code = self.proc.wait(timeout=DEADLINE)
        return code, self.pending + rest


failures = []
checks = [0]


def check(cond, what):
    checks[0] += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def base(qid, **kw):
    q = {
        "id": qid,
        "moves": [],
        "rules": "chinese",
        "komi": 7,
        "boardXSize": 9,
        "boardYSize": 9,
        "maxVisits": 60,
    }
    q.update(kw)
    return {k: v for k, v in q.items() if v is not None or k == "id"}


# Black owns the left five columns, White the rest: Black is far ahead.
BLACK_WALL = [["B", c + str(r)] for c in "DE" for r in range(1, 10)]
WHITE_WALL = [["W", "F" + str(r)] for r in range(1, 10)]

# A ko: Black captures at F5, both pass, White retakes at E5, which
# repeats the start position (positional superko forbids it).
KO_STONES = [["B", "D5"], ["B", "E4"], ["B", "E6"], ["W", "F4"], ["W", "F6"], ["W", "G5"], ["W", "E5"]]
KO_MOVES = [["B", "F5"], ["W", "pass"], ["B", "pass"], ["W", "E5"]]

MOVE_INFO_FIELDS = {"move": str, "visits": int, "winrate": float, "scoreMean": float,
                    "scoreStdev": float, "scoreLead": float, "prior": float, "lcb": float,
                    "order": int, "pv": list}


def check_response_shape(r, what):
    check(isinstance(r.get("moveInfos"), list) and r["moveInfos"], f"{what}: moveInfos")
    for mi in r.get("moveInfos", []):
        for f, t in MOVE_INFO_FIELDS.items():
            ok = isinstance(mi.get(f), t) or (t is float and isinstance(mi.get(f), int))
            check(ok, f"{what}: moveInfos.{f} is {t.__name__}: {mi.get(f)!r}")
        check(0.0 <= mi.get("winrate", -1) <= 1.0, f"{what}: winrate in [0,1]")
        check(mi.get("scoreMean") == mi.get("scoreLead"), f"{what}: scoreMean == scoreLead")
        check(mi.get("pv", [None])[0] == mi.get("move"), f"{what}: pv starts with the move")
    orders = [mi["order"] for mi in r.get("moveInfos", [])]
    check(orders == list(range(len(orders))), f"{what}: order 0..n")
    visits = [mi["visits"] for mi in r.get("moveInfos", [])]
    check(visits == sorted(visits, reverse=True), f"{what}: best (most visited) first")
    ri = r.get("rootInfo", {})
    for f in ("winrate", "scoreLead", "visits", "thisHash", "symHash"):
        check(f in ri, f"{what}: rootInfo.{f}")
    check("policy" not in r, f"{what}: no policy (no neural net)")


def main():
    binary = sys.argv[1]
    EXTRA.extend(sys.argv[2:])

    # ---- fields, one engine with two analysis threads ------------------
    e = Engine(binary, "--analysis-threads", "2")

    e.send({"id": "ver", "action": "query_version"})
    r = e.expect(lambda r: r.get("id") == "ver", "query_version")
    check(r.get("action") == "query_version" and isinstance(r.get("version"), str)
          and isinstance(r.get("git_hash"), str), f"query_version echo: {r}")
    e.send({"id": "cc", "action": "clear_cache"})
    r = e.expect(lambda r: r.get("id") == "cc", "clear_cache")
    check(r == {"id": "cc", "action": "clear_cache"}, f"clear_cache echo: {r}")

    # moves, analyzeTurns, maxVisits, includePVVisits
    e.send(base("turns", moves=[["B", "E5"], ["W", "C3"]], analyzeTurns=[0, 1, 2],
                maxVisits=80, includePVVisits=True))
    players = {}
    for t in (0, 1, 2):
        r = e.final("turns", t)
        check_response_shape(r, f"turns {t}")
        check(r["rootInfo"]["visits"] == 80, f"maxVisits 80 gives 80 root visits: {r['rootInfo']['visits']}")
        check(all(len(mi["pvVisits"]) == len(mi["pv"]) for mi in r["moveInfos"]), "pvVisits beside pv")
        check(all(mi["pvVisits"][0] == mi["visits"] for mi in r["moveInfos"]), "pvVisits starts with visits")
        players[t] = r["rootInfo"].get("currentPlayer")
        check("E5" not in [mi["move"] for mi in r["moveInfos"]] or t == 0, "E5 occupied after turn 0")
    check(players == {0: "B", 1: "W", 2: "B"}, f"side to move per turn: {players}")

    # Without analyzeTurns: the last position only.
    e.send(base("last", moves=[["B", "E5"], ["W", "C3"], ["B", "G7"]]))
    r = e.final("last")
    check(r["turnNumber"] == 3, f"default turn is the last: {r['turnNumber']}")

    # Perspective: Black far ahead, White to move: Black's win rate is high
    # (reported from Black's side by default); ownership says Black's left.
    e.send(base("persp", initialStones=BLACK_WALL + WHITE_WALL, initialPlayer="W",
                komi=-10, maxVisits=600, includeOwnership=True))
    r = e.final("persp")
    check(r["rootInfo"]["currentPlayer"] == "W", "initialPlayer W")
    # (Black's true lead is 19 points. About 0.85 and 15 points at 600
    # visits; at 150 the lead fell under 10 on some seeds. The other
    # side's view would be about 0.15.)
    check(r["rootInfo"]["winrate"] > 0.7, f"Black's win rate from Black's side: {r['rootInfo']['winrate']}")
    check(r["rootInfo"]["scoreLead"] > 10, f"Black's lead from Black's side: {r['rootInfo']['scoreLead']}")
    # (Moves of a few visits can read 0.5 or less either way round.)
    check(all(mi["winrate"] > 0.5 for mi in r["moveInfos"] if mi["visits"] >= 10),
          "moveInfos from Black's side")
    own = r.get("ownership", [])
    check(len(own) == 81 and all(-1 <= o <= 1 for o in own), "ownership: 81 values in [-1,1]")
    if len(own) == 81:
        check(own[9 * 4 + 0] > 0.5 and own[9 * 4 + 8] < -0.5, "ownership: A5 Black's, J5 White's")
    moved = {mi["move"] for mi in r["moveInfos"]}
    check(not moved & {"D5", "E5", "F5"}, "initialStones occupy their points")

    # komi: a huge komi turns the empty board into White's game.
    e.send(base("komi", komi=60, maxVisits=100))
    r = e.final("komi")
    check(r["rootInfo"]["winrate"] < 0.2, f"komi 60: Black's win rate low: {r['rootInfo']['winrate']}")
    check(r["rootInfo"]["scoreLead"] < -30, f"komi 60: Black's lead below -30: {r['rootInfo']['scoreLead']}")

    # rules: the superko sequence is refused under chinese, played under
    # japanese (simple ko) and under a rules object with simple ko.
    e.send(base("ko-jp", rules="japanese", initialStones=KO_STONES, moves=KO_MOVES, maxVisits=20))
    r = e.final("ko-jp")
    check(r["turnNumber"] == 4, "simple ko: the retake is legal")
    e.send(base("ko-obj", rules={"ko": "SIMPLE", "scoring": "AREA", "suicide": False, "tax": "NONE",
                                 "hasButton": False, "whiteHandicapBonus": "0"},
                initialStones=KO_STONES, moves=KO_MOVES, maxVisits=20))
    r = e.final("ko-obj")
    check(r["turnNumber"] == 4, "rules object with simple ko")

    # avoidMoves and allowMoves.
    avoid = ["E5", "D4", "F4", "D6", "F6", "C3", "G7", "C7", "G3"]
    e.send(base("avoid", maxVisits=100, avoidMoves=[{"player": "B", "moves": avoid, "untilDepth": 1}]))
    r = e.final("avoid")
    check(not {mi["move"] for mi in r["moveInfos"]} & set(avoid), "avoidMoves: none of them searched")
    e.send(base("allow", maxVisits=100, allowMoves=[{"player": "B", "moves": ["C3", "G7"], "untilDepth": 1}]))
    r = e.final("allow")
    check({mi["move"] for mi in r["moveInfos"]} <= {"C3", "G7"} and r["moveInfos"],
          f"allowMoves: only C3 and G7: {[mi['move'] for mi in r['moveInfos']]}")

    # includeMovesOwnership.
    e.send(base("mown", maxVisits=40, includeMovesOwnership=True))
    r = e.final("mown")
    check(all(len(mi.get("ownership", [])) == 81 for mi in r["moveInfos"]), "includeMovesOwnership")

    # overrideSettings: a known key changes the search, an unknown one warns.
    e.send(base("ovr", maxVisits=None, overrideSettings={"maxVisits": 77, "noSuchParam": 1}))
    w = e.expect(lambda r: r.get("id") == "ovr" and "warning" in r, "overrideSettings warning")
    check(w.get("field") == "overrideSettings" and "noSuchParam" in w["warning"], f"unknown param warning: {w}")
    r = e.final("ovr")
    check(r["rootInfo"]["visits"] == 77, f"overrideSettings maxVisits 77: {r['rootInfo']['visits']}")

    # includePolicy: a warning, no policy.
    e.send(base("pol", maxVisits=20, includePolicy=True))
    w = e.expect(lambda r: r.get("id") == "pol" and "warning" in r, "includePolicy warning")
    check(w.get("field") == "includePolicy", "includePolicy warning names the field")
    r = e.final("pol")
    check("policy" not in r, "no policy field")

    # Determinism: the same query twice gives the same answer.
    e.send(base("same1", moves=[["B", "C4"]], maxVisits=120))
    e.send(base("same2", moves=[["B", "C4"]], maxVisits=120))
    a, b = e.final("same1"), e.final("same2")
    check(a["moveInfos"] == b["moveInfos"] and a["rootInfo"] == b["rootInfo"], "same query, same answer")

    # ---- malformed queries ----------------------------------------------
    bad = [
        ('{"id": "m1", "moves": [', None),
        ('[1, 2, 3]', None),
        (json.dumps(base(None)), "id"),
        (json.dumps({**base("x"), "id": 5}), "id"),
        (json.dumps(base("m5", moves=[["B", "Z99"]])), "moves"),
        (json.dumps(base("m6", moves=[["W", "A2"], ["W", "B1"], ["B", "A1"]])), "moves"),
        (json.dumps(base("m7", moves=[["B", "E5"], ["W", "E5"]])), "moves"),
        (json.dumps(base("m8", initialStones=KO_STONES, moves=KO_MOVES)), "moves"),
        (json.dumps(base("m9", boardXSize=30, boardYSize=30)), "boardXSize"),
        (json.dumps({k: v for k, v in base("m10").items() if k != "boardYSize"}), "boardYSize"),
        (json.dumps(base("m11", boardYSize=13)), "boardYSize"),
        (json.dumps(base("m12", rules="no-such-rules")), "rules"),
        (json.dumps({k: v for k, v in base("m13").items() if k != "rules"}), "rules"),
        (json.dumps(base("m14", komi=7.3)), "komi"),
        (json.dumps(base("m15", maxVisits=0)), "maxVisits"),
        (json.dumps(base("m16", moves=[["B", "E5"]], analyzeTurns=[5])), "analyzeTurns"),
        (json.dumps(base("m17", initialPlayer="X")), "initialPlayer"),
        (json.dumps(base("m18", avoidMoves=[{"player": "B", "moves": ["E5"]}])), "avoidMoves"),
        (json.dumps(base("m19", includeOwnership="yes")), "includeOwnership"),
        (json.dumps(base("m20", moves=[["B"]])), "moves"),
        (json.dumps(base("m21", priority="high")), "priority"),
        (json.dumps(base("m22", reportDuringSearchEvery=0)), "reportDuringSearchEvery"),
        (json.dumps(base("m23", overrideSettings=[1])), "overrideSettings"),
        (json.dumps(base("m24", rules={"hasButton": True})), "rules"),
        (json.dumps({"id": "m25", "action": "no_such_action"}), "action"),
        (json.dumps({"id": "m26", "action": "terminate"}), "terminateId"),
        (json.dumps(base("m27", initialStones=[["B", "C3"], ["B", "C3"]])), "initialStones"),
        ('{"id": "m28", "moves": [], "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "komi": NaN}', None),
    ]
    check(len(bad) >= 20, "at least 20 malformed queries")
    for i, (text, field) in enumerate(bad):
        e.send(text)
        r = e.expect(lambda r: "error" in r, f"error for malformed query {i}: {text}")
        check(isinstance(r["error"], str) and r["error"], f"error text for {text}")
        if field is not None:
            check(r.get("field") == field, f"error names field {field}: {r} for {text}")
        qid = json.loads(text).get("id") if field not in (None, "id") else None
        if qid is not None:
            check(r.get("id") == qid, f"error carries the id {qid}: {r}")
        # Still serving: a small query right after.
        e.send(base(f"after{i}", maxVisits=5))
        e.final(f"after{i}")
    # The superko error names the move.
    code, rest = e.close()
    check(code == 0, f"exit status 0 at end of input: {code}")
    stray = [r for r in rest if "error" in r]
    check(not stray, f"no stray errors: {stray}")

    # ---- order, priority, terminate, reports during search --------------
    # One analysis thread: "long" runs while "low" and "high" wait; "high"
    # has the higher priority, so it is answered before "low", out of the
    # order they were sent in. "low" and "high" are sent only once "long"
    # has reported, so it is on the thread: sent at once, "low" could be
    # read before the thread took "long", and then rightly run first, as
    # the query of higher priority.
    e = Engine(binary, "--analysis-threads", "1")
    e.send(base("long", maxVisits=10_000_000, reportDuringSearchEvery=0.05))
    r = e.expect(lambda r: r.get("id") == "long", "first report of long")
    check(r.get("isDuringSearch") is True, "long reports while it runs")
    e.send(base("low", maxVisits=10, priority=1))
    e.send(base("high", maxVisits=10, priority=5))
    e.send(base("doomed", maxVisits=10, analyzeTurns=[0]))
    e.send({"id": "t1", "action": "terminate", "terminateId": "doomed", "turnNumbers": [0]})
    r = e.expect(lambda r: r.get("id") == "t1", "terminate echo")
    check(r.get("terminateId") == "doomed", "terminate echoed")
    r = e.expect(lambda r: r.get("id") == "doomed", "doomed answered")
    check(r == {"id": "doomed", "isDuringSearch": False, "noResults": True, "turnNumber": 0},
          f"a queued query terminated: noResults: {r}")
    # Reports during the search of "long", then terminate it.
    for k in range(2):
        r = e.expect(lambda r: r.get("id") == "long", "report during search")
        check(r["isDuringSearch"] is True, f"report {k} during search")
        check_response_shape(r, "report during search")
    e.send({"id": "t2", "action": "terminate", "terminateId": "long"})
    r = e.final("long")
    check(0 < r["rootInfo"]["visits"] < 10_000_000, "terminated search answers with its visits so far")
    e.send(base("queued-at-eof", maxVisits=30))
    code, rest = e.close()
    check(code == 0, "exit status 0")
    ids = [r.get("id") for r in e.seen + rest if r.get("isDuringSearch") is False]
    check("high" in ids and "low" in ids and ids.index("high") < ids.index("low"),
          f"higher priority answered first: {ids}")
    check("queued-at-eof" in ids, "queued query finished at end of input")
    finals = [r for r in e.seen + rest if r.get("id") == "long" and r.get("isDuringSearch") is False]
    check(len(finals) == 1, "exactly one final response per position")

    # ---- --report-as side -----------------------------------------------
    e = Engine(binary, "--report-as", "side")
    e.send(base("side", initialStones=BLACK_WALL + WHITE_WALL, initialPlayer="W", komi=-10,
                maxVisits=600, includeOwnership=True))
    r = e.final("side")
    check(r["rootInfo"]["winrate"] < 0.3, f"side to move (White) sees a loss: {r['rootInfo']['winrate']}")
    check(r["rootInfo"]["scoreLead"] < -10, "side to move's lead")
    own = r.get("ownership", [])
    check(len(own) == 81 and own[36] < -0.5, "ownership for the side to move")
    e.close()

    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        sys.exit(1)
    print(f"analysis protocol: all {checks[0]} checks passed")


if __name__ == "__main__":
    main()
