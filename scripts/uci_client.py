#!/usr/bin/env python3
"""Drives `gametree uci` with python-chess, a UCI client we did not write, and checks its answers.

    pip install chess            # python-chess, https://pypi.org/project/chess/
    cargo build --release -p gametree-cli
    python3 scripts/uci_client.py [path/to/gametree] [--plies N]

What it checks, each through python-chess's own protocol handling (SimpleEngine.popen_uci):
  1. the handshake (uci / uciok, isready / readyok) and the engine's name;
  2. a game against itself from the start, N plies (default 12), alternating the limits a GUI
     sends: a depth, a move time, a clock with increments, a node count; every move legal, every
     move-time answer on time;
  3. analysis of a position with castling and en passant (Kiwipete after two moves), whose
     `info` lines python-chess must parse (depth, score, nodes, nps, pv, every pv move legal);
  4. a mate in two found and reported as `score mate 2`, the winning move Re8+;
  5. a search stopped by python-chess's analysis context (`go infinite`, then `stop`).
Exits with status 1 and a message on the first failure, 0 after printing what it saw.
"""

import argparse
import os
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


def fail(message):
    sys.exit(f"uci_client: FAILED: {message}")


def check(condition, message):
    if not condition:
        fail(message)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary", nargs="?", default=os.path.join(root, "target", "release", "gametree"))
    parser.add_argument("--plies", type=int, default=12)
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"no binary at {args.binary}: cargo build --release -p gametree-cli")

    engine = chess.engine.SimpleEngine.popen_uci([args.binary, "uci"])
    try:
        name = engine.id.get("name", "")
        check(name.startswith("gametree chess"), f"engine name {name!r}")
        print(f"engine: {name} by {engine.id.get('author')}")

        # 2. A game against itself under the limits a GUI sends.
        board = chess.Board()
        limits = [
            ("depth 4", chess.engine.Limit(depth=4)),
            ("movetime 0.2 s", chess.engine.Limit(time=0.2)),
            ("clock 5 s + 0.1 s", chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1)),
            ("nodes 20000", chess.engine.Limit(nodes=20000)),
        ]
        for ply in range(args.plies):
            label, limit = limits[ply % len(limits)]
            start = time.monotonic()
            result = engine.play(board, limit)
            took = time.monotonic() - start
            check(result.move in board.legal_moves, f"ply {ply}: illegal move {result.move} in {board.fen()}")
            if limit.time is not None:
                check(took <= limit.time + 0.05, f"ply {ply}: movetime {limit.time}s answered after {took:.3f}s")
            print(f"ply {ply:2} {label:18} {board.san(result.move):8} {took * 1000:6.0f} ms")
            board.push(result.move)
            if board.is_game_over():
                break

        # 3. Analysis with castling and en passant on the board.
        kiwipete = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        kiwipete.push_uci("a2a4")  # black may now take en passant: b4a3
        kiwipete.push_uci("b4a3")
        info = engine.analyse(kiwipete, chess.engine.Limit(depth=5))
        for key in ("depth", "score", "nodes", "nps", "pv"):
            check(key in info, f"analysis without {key}: {info}")
        check(info["depth"] == 5, f"analysis depth {info['depth']}")
        line = kiwipete.copy()
        for move in info["pv"]:
            check(move in line.legal_moves, f"pv move {move} illegal in {line.fen()}")
            line.push(move)
        print(f"kiwipete after a2a4 b4a3: depth {info['depth']} score {info['score'].white()} "
              f"nodes {info['nodes']} nps {info['nps']} pv {kiwipete.variation_san(info['pv'])}")

        # 4. Mate in two: Re8+ Rxe8 Rxe8#.
        mate = chess.Board("3r2k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1")
        info = engine.analyse(mate, chess.engine.Limit(depth=4))
        check(info["score"].white() == chess.engine.Mate(2), f"mate in two reported as {info['score']}")
        check(info["pv"][0] == chess.Move.from_uci("e2e8"), f"mate in two starts {info['pv'][0]}")
        print(f"mate in two: score {info['score'].white()} pv {mate.variation_san(info['pv'])}")

        # 5. go infinite, stopped by the client.
        with engine.analysis(chess.Board(), chess.engine.Limit()) as analysis:
            time.sleep(0.3)
            analysis.stop()
            start = time.monotonic()
            best = analysis.wait()
            took = time.monotonic() - start
        check(best.move is not None and best.move in chess.Board().legal_moves, f"stopped search answered {best}")
        check(took < 0.2, f"stop answered after {took:.3f}s")
        print(f"infinite analysis stopped: {best.move} after {took * 1000:.0f} ms")
    finally:
        engine.quit()
    print("uci_client: all checks passed")


if __name__ == "__main__":
    main()
