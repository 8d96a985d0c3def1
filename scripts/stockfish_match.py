#!/usr/bin/env python3
"""Places `gametree uci` on Stockfish's UCI_Elo scale: paired games against Stockfish limited to
several UCI_Elo settings, from seeded random openings, with each result's Elo and 95 % interval.

    apt-get install stockfish    # Debian's package: /usr/games/stockfish
    pip install chess            # python-chess, https://pypi.org/project/chess/
    cargo build --release -p gametree-cli
    python3 scripts/stockfish_match.py [--gametree target/release/gametree] [--elo 1350 1600]
        [--pairs 20] [--movetime 100] [--seed 1] [--searcher SPEC] [--threads 1]

How it plays (the conventions of `gametree match`):
  - an opening is `--opening-plies` (default 6) uniformly random legal moves from the start,
    drawn from `--seed`; each opening is played twice, gametree with White and then with Black;
  - both engines get `--movetime` milliseconds a move and one thread; Stockfish has
    `UCI_LimitStrength` on and `UCI_Elo` set, and 16 MB of hash;
  - a game ends by the rules (mate, stalemate, insufficient material, fifty moves, threefold
    repetition, claimed by python-chess at once) or at `--max-plies` (default 300) as a draw;
  - an engine that crashes, answers an illegal move or no move loses that game (counted apart).

For each setting it prints gametree's wins, draws and losses, its score, the Elo difference the
score implies (`-400 log10(1/s - 1)`) and a 95 % interval from the games' own variance (wins,
draws and losses as 1, ½, 0: mean ± 1.96 σ/√n, mapped through the same formula; where every
game ended alike, the rule of three bounds the score). The setting plus the difference is
gametree's place on Stockfish's scale (`place` in `--json`'s objects, one per setting), which
Stockfish calibrates against CCRL 40/4 ratings at its own time controls: a scale for comparing
our versions and settings with each other, not a rating.
"""

import argparse
import json
import math
import random
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


def opening(rng, plies):
    """A board after `plies` uniformly random legal moves that do not end the game."""
    while True:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over(claim_draw=True):
            return board


def play(board, white, black, limit, max_plies):
    """Plays from `board` to the end; returns (result for White: 1, 0.5 or 0, forfeit side)."""
    board = board.copy()
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        side = board.turn
        try:
            move = engines[side].play(board, limit).move
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError):
            move = None
        if move is None or move not in board.legal_moves:
            return (0.0 if side == chess.WHITE else 1.0), side
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5, None
    return (1.0 if outcome.winner == chess.WHITE else 0.0), None


def elo(score):
    """The Elo difference a score implies; None (unbounded) at 0 and 1."""
    if score <= 0 or score >= 1:
        return None
    return -400 * math.log10(1 / score - 1)


def summary(setting, results, forfeits):
    """Wins, draws, losses, score, Elo and its 95 % interval of gametree's `results`."""
    n = len(results)
    mean = sum(results) / n
    variance = sum((r - mean) ** 2 for r in results) / max(n - 1, 1)
    half = 1.96 * math.sqrt(variance / n)
    low, high = mean - half, mean + half
    if variance == 0:
        # Every game the same: the normal interval is empty; the rule of three bounds the score
        # at 95 % (a score of 1 over n games is at least 1 - 3/n), the other side is open.
        low, high = (1 - 3 / n, 1.0) if mean == 1 else (mean, mean) if mean == 0.5 else (0.0, 3 / n)
    return {
        "uci_elo": setting,
        "games": n,
        "wins": results.count(1.0),
        "draws": results.count(0.5),
        "losses": results.count(0.0),
        "forfeits": forfeits,
        "score": mean,
        "elo_difference": elo(mean),
        "interval": [elo(low), elo(high)],
        "place": None if elo(mean) is None else setting + elo(mean),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gametree", default="target/release/gametree")
    parser.add_argument("--searcher", default=None, help="gametree uci --searcher SPEC")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--elo", type=int, nargs="+", default=[1350, 1600, 1900])
    parser.add_argument("--pairs", type=int, default=20, help="openings per setting")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds a move")
    parser.add_argument("--opening-plies", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    command = [args.gametree, "uci"] + (["--searcher", args.searcher] if args.searcher else [])
    limit = chess.engine.Limit(time=args.movetime / 1000)
    rows = []
    for setting in args.elo:
        rng = random.Random(f"{args.seed}/{setting}")
        results, forfeits = [], 0
        ours = chess.engine.SimpleEngine.popen_uci(command)
        stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        stockfish.configure(
            {"UCI_LimitStrength": True, "UCI_Elo": setting, "Threads": 1, "Hash": 16}
        )
        try:
            for _ in range(args.pairs):
                board = opening(rng, args.opening_plies)
                for ours_white in (True, False):
                    white, black = (ours, stockfish) if ours_white else (stockfish, ours)
                    white_score, forfeit = play(board, white, black, limit, args.max_plies)
                    forfeits += forfeit is not None
                    results.append(white_score if ours_white else 1 - white_score)
        finally:
            ours.quit()
            stockfish.quit()
        rows.append(summary(setting, results, forfeits))
        row = rows[-1]
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            shown = lambda x, unbounded: unbounded if x is None else f"{x:+.0f}"
            low, high = row["interval"]
            print(
                f"UCI_Elo {setting}: {row['games']} games, +{row['wins']} ={row['draws']} "
                f"-{row['losses']} ({row['forfeits']} forfeits), score {row['score']:.3f}, "
                f"Elo {shown(row['elo_difference'], 'unbounded')} "
                f"[{shown(low, '-inf')}, {shown(high, '+inf')}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
