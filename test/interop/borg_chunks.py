"""Reference side of test/integration/chunking_interop.sh for cdc_chunks(data, 'buzhash', ...).

Cuts files with the real borg buzhash chunker (borg.chunker.Chunker from Debian's borgbackup, 1.2) and prints one
tab-separated line per chunk, ready for psql's \\copy:

    LABEL  FILE  INDEX  START  LENGTH  \\N

FILE is the file's base name, INDEX counts the file's chunks from 1, START is the sum of the lengths before (borg
only yields the chunks' data) and the last column is NULL: borg does not expose the hash at the cut.

    python3 borg_chunks.py LABEL SEED MIN_EXP MAX_EXP MASK_BITS WINDOW FILE...

SEED is borg's signed 32-bit chunker seed; the rest are borg's chunker params
Chunker(seed, chunk_min_exp, chunk_max_exp, hash_mask_bits, hash_window_size). Exits 2 on bad arguments or errors.
"""

import os
import sys

from borg.chunker import Chunker


def chunk_length(chunk):
    # borg 1.2 yields Chunk(data=memoryview, meta={'size': ..., 'allocation': ...}); an all-zero chunk comes as
    # allocation CH_ALLOC with data None (the cut is the same, borg just stores it sparsely). 1.1 yielded the data.
    meta = getattr(chunk, "meta", None)
    if meta is not None:
        return meta["size"]
    data = getattr(chunk, "data", chunk)
    return len(data)


def main(argv):
    if len(argv) < 8:
        sys.exit("usage: borg_chunks.py LABEL SEED MIN_EXP MAX_EXP MASK_BITS WINDOW FILE...")
    label = argv[1]
    seed, min_exp, max_exp, mask_bits, window = (int(a) for a in argv[2:7])
    out = sys.stdout
    for path in argv[7:]:
        name = os.path.basename(path)
        chunker = Chunker(seed, min_exp, max_exp, mask_bits, window)
        start = 0
        with open(path, "rb") as f:
            for index, chunk in enumerate(chunker.chunkify(f), 1):
                length = chunk_length(chunk)
                out.write(f"{label}\t{name}\t{index}\t{start}\t{length}\t\\N\n")
                start += length
        size = os.path.getsize(path)
        if start != size:
            raise SystemExit(f"borg_chunks.py: {path}: chunks cover {start} of {size} bytes")


if __name__ == "__main__":
    try:
        main(sys.argv)
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            sys.exit(2)
        raise
