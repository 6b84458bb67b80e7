"""The borg side of test/bench/peers/run.sh: times borg's buzhash chunker (borg.chunker.Chunker from Debian's
borgbackup) over a file held in memory, as chunker_speed.cpp times idcodec's:

    python3 borg_speed.py FILE SEED MIN_EXP MAX_EXP MASK_BITS WINDOW ROUNDS

prints "NANOSECONDS CHUNKS", the best of ROUNDS passes.
"""

import io
import sys
import time

from borg.chunker import Chunker


def main(argv):
    if len(argv) != 8:
        sys.exit("usage: borg_speed.py FILE SEED MIN_EXP MAX_EXP MASK_BITS WINDOW ROUNDS")
    with open(argv[1], "rb") as f:
        data = f.read()
    seed, min_exp, max_exp, mask_bits, window, rounds = (int(a) for a in argv[2:8])
    best = chunks = None
    for _ in range(rounds):
        start = time.perf_counter_ns()
        n = sum(1 for _ in Chunker(seed, min_exp, max_exp, mask_bits, window).chunkify(io.BytesIO(data)))
        elapsed = time.perf_counter_ns() - start
        if best is None or elapsed < best:
            best, chunks = elapsed, n
    print(best, chunks)


if __name__ == "__main__":
    main(sys.argv)
