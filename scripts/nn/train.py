#!/usr/bin/env python3
"""Trains Kosumi's policy network on `kosumi nn export` data (PyTorch).

One command (see docs/nn.md):

    python3 scripts/nn/train.py --data train.bin --val held.bin \
        --out data/nn.bin --blocks 6 --channels 64 --steps 20000

Reads the export format (docs/nn.md, src/nn/export.rs), trains a residual
tower without batch normalization (what it saves is what Kosumi runs:
src/nn/net.rs), and writes the weights file (little-endian f32 with a
header naming the command, the data, the shape and the held-out figures).

Deterministic for a seed and a thread count: the batch of step `s` and its
symmetries are drawn from a generator seeded with (seed, s), so a run
resumed from a checkpoint (`--checkpoint FILE`, written every
`--checkpoint-every` steps and at the end; picked up when it exists) goes
on exactly as the run that was not stopped. Every position is seen under
one of the 8 symmetries of the board, drawn at random (`--no-augment`:
as recorded). Runs on the CPU, or on a CUDA GPU when one is present
(`--device`).

`--golden-out FILE` also writes the raw logits (and values) of the first
`--golden-count` positions of `--golden-data` (default: `--data`), as
little-endian f32 after a header (`KSNNLOGT`, u32 count, u32 logits per
position, u32 1 if values follow): the Rust test checks its own
evaluation against them.
"""

import argparse
import math
import os

# cuBLAS is deterministic only with a fixed workspace (set before torch loads).
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
import shlex
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DATA_MAGIC = b"KSNNDATA"
WEIGHTS_MAGIC = b"KSNNWGHT"
LOGITS_MAGIC = b"KSNNLOGT"
BASE_PLANES = 24
HISTORY = 4
# Planes 11..=14: the legal moves of the side to move (src/nn/planes.rs).
LEGAL_PLANES = range(11, 15)


class Data:
    """A data file in memory: packed planes, pattern bytes, targets."""

    def __init__(self, path):
        with open(path, "rb") as f:
            b = f.read()
        if len(b) < 32 or b[:8] != DATA_MAGIC:
            sys.exit(f"{path}: not a kosumi nn data file")
        version, planes, size, flags, history, _ = struct.unpack_from("<6I", b, 8)
        if version != 1 or planes != BASE_PLANES or history != HISTORY:
            sys.exit(f"{path}: version {version}, {planes} planes, history {history}: not what this trainer reads")
        if not 2 <= size <= 25:
            sys.exit(f"{path}: board size {size}")
        self.path = path
        self.size = size
        self.area = area = size * size
        self.pattern = bool(flags & 1)
        self.planes = BASE_PLANES + int(self.pattern)
        nbits = (BASE_PLANES * area + 7) // 8
        fixed = 8 + nbits + (area if self.pattern else 0)
        bits, pats, moves, results, policies = [], [], [], [], {}
        at = 32
        while at < len(b):
            if at + fixed > len(b):
                sys.exit(f"{path}: record {len(moves) + 1} cut short")
            mv, result, rflags = struct.unpack_from("<HbB", b, at)
            if mv > area:
                sys.exit(f"{path}: record {len(moves) + 1}: move {mv} off the board")
            bits.append(np.frombuffer(b, np.uint8, nbits, at + 8))
            if self.pattern:
                pats.append(np.frombuffer(b, np.uint8, area, at + 8 + nbits))
            at += fixed
            if rflags & 1:
                n = 4 * (area + 1)
                if at + n > len(b):
                    sys.exit(f"{path}: record {len(moves) + 1} cut short")
                policies[len(moves)] = np.frombuffer(b, "<f4", area + 1, at).copy()
                at += n
            moves.append(mv)
            results.append(result)
        self.bits = np.stack(bits) if bits else np.zeros((0, nbits), np.uint8)
        self.pats = np.stack(pats) if pats else None
        self.moves = np.array(moves, np.int64)
        self.results = np.array(results, np.float32)
        self.policies = policies
        self.nbits = nbits

    def __len__(self):
        return len(self.moves)

    def to(self, device):
        """Keeps the packed records on `device`, where batches are unpacked."""
        self.dev = device
        self.tbits = torch.from_numpy(self.bits).to(device)
        self.tpats = torch.from_numpy(self.pats).to(device) if self.pats is not None else None
        self.tmoves = torch.from_numpy(self.moves).to(device)
        self.tresults = torch.from_numpy(self.results).to(device)
        rows = np.full(len(self), -1, np.int64)
        table = np.zeros((max(len(self.policies), 1), self.area + 1), np.float32)
        for r, (i, p) in enumerate(sorted(self.policies.items())):
            rows[i] = r
            table[r] = p
        self.trows = torch.from_numpy(rows).to(device)
        self.ttable = torch.from_numpy(table).to(device)
        self.shifts = torch.arange(8, dtype=torch.uint8, device=device)
        return self

    def batch(self, idx):
        """Planes (n, planes, size, size) and policy targets (n, area + 1) of
        records `idx` (a tensor on the data's device), unpacked where the
        data lives: bit `i` of a record's planes is bit `i % 8` of byte
        `i / 8`; the target is the visit distribution where the record has
        one, else the move played."""
        n, area = len(idx), self.area
        b = self.tbits[idx]
        un = ((b.unsqueeze(-1) >> self.shifts) & 1).flatten(1)[:, : BASE_PLANES * area]
        x = torch.zeros((n, self.planes, area), dtype=torch.float32, device=self.dev)
        x[:, :BASE_PLANES] = un.view(n, BASE_PLANES, area).float()
        if self.pattern:
            x[:, BASE_PLANES] = self.tpats[idx].float() / 255.0
        t = torch.zeros((n, area + 1), dtype=torch.float32, device=self.dev)
        t[torch.arange(n, device=self.dev), self.tmoves[idx]] = 1.0
        rows = self.trows[idx]
        given = rows >= 0
        if bool(given.any()):
            t[given] = self.ttable[rows[given]]
        return x.view(n, self.planes, self.size, self.size), t


class Net(nn.Module):
    """The tower of src/nn/net.rs."""

    def __init__(self, planes, blocks, channels, value_hidden):
        super().__init__()
        self.shape = (planes, blocks, channels, value_hidden)
        self.inp = nn.Conv2d(planes, channels, 3, padding=1)
        self.blocks = nn.ModuleList()
        for _ in range(blocks):
            a = nn.Conv2d(channels, channels, 3, padding=1)
            b = nn.Conv2d(channels, channels, 3, padding=1)
            with torch.no_grad():
                b.weight.mul_(0.1)
                b.bias.zero_()
            self.blocks.append(nn.ModuleList([a, b]))
        self.p1 = nn.Conv2d(channels, 2, 1)
        self.p2 = nn.Conv2d(2, 1, 1)
        self.pass_ = nn.Linear(channels, 1)
        self.v1 = nn.Linear(channels, value_hidden) if value_hidden else None
        self.v2 = nn.Linear(value_hidden, 1) if value_hidden else None

    def forward(self, x):
        x = F.relu(self.inp(x))
        for a, b in self.blocks:
            x = F.relu(x + b(F.relu(a(x))))
        pts = self.p2(F.relu(self.p1(x))).flatten(1)
        m = x.mean(dim=(2, 3))
        logits = torch.cat([pts, self.pass_(m)], dim=1)
        value = torch.tanh(self.v2(F.relu(self.v1(m)))).squeeze(1) if self.v1 is not None else None
        return logits, value

    def tensors(self):
        """The weights in the file's order (src/nn/net.rs)."""
        out = [self.inp.weight, self.inp.bias]
        for a, b in self.blocks:
            out += [a.weight, a.bias, b.weight, b.bias]
        out += [self.p1.weight, self.p1.bias, self.p2.weight, self.p2.bias, self.pass_.weight, self.pass_.bias]
        if self.v1 is not None:
            out += [self.v1.weight, self.v1.bias, self.v2.weight, self.v2.bias]
        return out


def write_weights(net, header, path):
    planes, blocks, channels, vh = net.shape
    h = header.encode("utf-8")
    body = b"".join(t.detach().cpu().contiguous().numpy().astype("<f4").tobytes() for t in net.tensors())
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(WEIGHTS_MAGIC + struct.pack("<II", 1, len(h)) + h)
        f.write(struct.pack("<6I", planes, blocks, channels, 1 if vh else 0, vh, 0))
        f.write(body)
    os.replace(tmp, path)


def symmetry(x, s):
    """Symmetry `s` (0..8) of the last two axes."""
    if s & 4:
        x = x.transpose(-1, -2)
    if s & 1:
        x = x.flip(-1)
    if s & 2:
        x = x.flip(-2)
    return x


def augment(x, t, syms, size):
    """Each position and its target under its symmetry."""
    n = x.shape[0]
    pts = t[:, :-1].reshape(n, size, size)
    xs, ps = x.clone(), pts.clone()
    for s in range(8):
        k = (syms == s).nonzero(as_tuple=True)[0]
        if len(k):
            xs[k] = symmetry(x[k], s)
            ps[k] = symmetry(pts[k], s)
    return xs, torch.cat([ps.reshape(n, -1), t[:, -1:]], dim=1)


def masked(logits, x):
    """Logits with the illegal points at -1e9 (the pass is always legal)."""
    legal = x[:, LEGAL_PLANES].sum(dim=1).flatten(1) > 0
    legal = torch.cat([legal, torch.ones_like(legal[:, :1])], dim=1)
    return logits.masked_fill(~legal, -1e9)


def evaluate(net, data, device, batch=256):
    """Top-1 and mean log-likelihood of the move played, over the legal moves.

    Top-1 here is the argmax (a tie goes to the first point); `kosumi nn
    eval` shares ties evenly, so the two differ where logits tie (an
    untrained network), and agree otherwise.
    """
    net.eval()
    hits, ll, n = 0, 0.0, len(data)
    with torch.no_grad():
        for s in range(0, n, batch):
            idx = torch.arange(s, min(n, s + batch), device=device)
            x, _ = data.batch(idx)
            mv = data.tmoves[idx]
            logits, _ = net(x)
            lp = F.log_softmax(masked(logits, x), dim=1)
            hits += (lp.argmax(dim=1) == mv).sum().item()
            ll += lp.gather(1, mv[:, None]).sum().item()
    net.train()
    return hits / max(n, 1), ll / max(n, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="training data (kosumi nn export)")
    ap.add_argument("--val", help="held-out data (kosumi nn export --split held-out)")
    ap.add_argument("--out", required=True, help="weights file to write")
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--value-hidden", type=int, default=0, help="value head units (0: none)")
    ap.add_argument("--steps", type=int, default=10000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--value-weight", type=float, default=0.25)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="CPU threads (results depend on it)")
    ap.add_argument("--device", default="auto", help="cpu, cuda, or auto")
    ap.add_argument("--no-augment", action="store_true")
    ap.add_argument("--checkpoint", help="checkpoint file: resumed from when it exists")
    ap.add_argument("--checkpoint-every", type=int, default=500)
    ap.add_argument("--stop-at", type=int, help="stop after this step (checkpoint and weights written; "
                    "run again with the same arguments to go on)")
    ap.add_argument("--time-limit", type=float, help="stop after the step that passes this many seconds, "
                    "as --stop-at at that step does (the header names the step)")
    ap.add_argument("--eval-every", type=int, default=0, help="held-out figures every N steps (0: at the end)")
    ap.add_argument("--golden-out", help="write the final logits of the first positions here")
    ap.add_argument("--golden-data", help="positions for --golden-out (default: --data)")
    ap.add_argument("--golden-count", type=int, default=8)
    a = ap.parse_args()

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    torch.use_deterministic_algorithms(True)
    device = torch.device("cuda" if a.device == "auto" and torch.cuda.is_available() else
                          ("cpu" if a.device == "auto" else a.device))
    data = Data(a.data)
    if len(data) == 0:
        sys.exit(f"{a.data}: no positions")
    data.to(device)
    val = Data(a.val).to(device) if a.val else None
    if val is not None and val.planes != data.planes:
        sys.exit("--val has other planes than --data")
    net = Net(data.planes, a.blocks, a.channels, a.value_hidden).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=a.weight_decay)
    step = 0
    if a.checkpoint and os.path.exists(a.checkpoint):
        ck = torch.load(a.checkpoint, map_location=device)
        if tuple(ck["shape"]) != net.shape:
            sys.exit(f"{a.checkpoint}: shape {ck['shape']}, asked for {net.shape}")
        net.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        step = ck["step"]
        print(f"resumed from {a.checkpoint} at step {step}", file=sys.stderr)

    def save_checkpoint():
        if a.checkpoint:
            tmp = a.checkpoint + ".part"
            torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "step": step, "shape": net.shape}, tmp)
            os.replace(tmp, a.checkpoint)

    t0 = time.time()
    run_loss = torch.zeros((), device=device)
    last = min(a.steps, a.stop_at) if a.stop_at is not None else a.steps
    while step < last:
        if a.time_limit is not None and time.time() - t0 > a.time_limit:
            print(f"time limit: stopped after step {step}", file=sys.stderr)
            break
        rng = np.random.default_rng([a.seed, step])
        idx = np.sort(rng.integers(0, len(data), size=min(a.batch, len(data))))
        syms = rng.integers(0, 8, size=len(idx))
        idx_t = torch.from_numpy(idx).to(device)
        x, t = data.batch(idx_t)
        if not a.no_augment:
            x, t = augment(x, t, torch.from_numpy(syms).to(device), data.size)
        # Linear decay to a tenth over the run.
        for g in opt.param_groups:
            g["lr"] = a.lr * (1.0 - 0.9 * step / max(a.steps, 1))
        logits, value = net(x)
        loss = -(t * F.log_softmax(masked(logits, x), dim=1)).sum(dim=1).mean()
        if value is not None:
            r = data.tresults[idx_t]
            known = r != 0
            if bool(known.any()):
                loss = loss + a.value_weight * F.mse_loss(value[known], r[known])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        run_loss += loss.detach()
        if step % 100 == 0:
            print(f"step {step}: loss {run_loss.item() / 100:.4f} ({time.time() - t0:.0f} s)", file=sys.stderr)
            run_loss.zero_()
        if a.checkpoint and step % a.checkpoint_every == 0:
            save_checkpoint()
        if val is not None and a.eval_every and step % a.eval_every == 0:
            top1, ll = evaluate(net, val, device)
            print(f"step {step}: held-out top-1 {100 * top1:.2f}%, mean log-likelihood {ll:.4f}", file=sys.stderr)
    save_checkpoint()

    header = [
        "kosumi nn weights",
        "command: " + " ".join(shlex.quote(x) for x in ["python3"] + sys.argv),
        f"data: {a.data}: {len(data)} positions of {data.size}x{data.size}, {data.planes} planes",
        f"shape: {a.blocks} blocks x {a.channels} channels, value head {a.value_hidden} units",
        f"training: step {step} of {a.steps}, batches of {a.batch}, AdamW lr {a.lr} decaying to a tenth, weight decay {a.weight_decay}, "
        f"seed {a.seed}, augment {'off' if a.no_augment else '8 symmetries'}, torch {torch.__version__}",
    ]
    if val is not None:
        top1, ll = evaluate(net, val, device)
        header.append(f"held-out: {a.val}: {len(val)} positions, top-1 {100 * top1:.2f}%, mean log-likelihood {ll:.4f}")
        print(header[-1], file=sys.stderr)
    write_weights(net, "\n".join(header) + "\n", a.out)
    print(f"wrote {a.out}", file=sys.stderr)

    if a.golden_out:
        g = Data(a.golden_data) if a.golden_data else data
        if a.golden_data:
            g.to(device)
        idx = torch.arange(min(a.golden_count, len(g)), device=device)
        net.eval()
        with torch.no_grad():
            logits, value = net(g.batch(idx)[0])
        out = LOGITS_MAGIC + struct.pack("<3I", len(idx), g.area + 1, 1 if value is not None else 0)
        out += logits.cpu().numpy().astype("<f4").tobytes()
        if value is not None:
            out += value.cpu().numpy().astype("<f4").tobytes()
        with open(a.golden_out, "wb") as f:
            f.write(out)
        print(f"wrote {a.golden_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
