"""Test data of test/integration/chunking_interop.sh: writes the files into DIR, the same bytes for the same SEED.

    python3 chunking_data.py SEED DIR

Kinds (about 20 MB in all):
  random.bin          4 MiB - 3 bytes of random bytes
  text.txt            about 3 MiB of text whose paragraphs and runs of paragraphs repeat (some with a small edit),
                      so content-defined boundaries repeat; a few non-ASCII (UTF-8) words
  zeros_mixed.bin     about 4 MiB: random data between zero runs (up to 1.5 MiB), a few 0xFF and short-pattern runs
  edge_*              empty, 1 byte, 63 bytes (< window 64), just under and exactly the min/max sizes of the
                      parameter sets, random and constant (a constant window never cuts in most settings, so the
                      max size and the end of the data meet), 8 MiB of one byte (restic's and borg's default max)
Prints one line per file: NAME SIZE.
"""

import os
import random
import sys


def random_bytes(rng, n):
    return rng.getrandbits(8 * n).to_bytes(n, "little") if n > 0 else b""


def make_text(rng, target):
    syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "an", "el", "or", "qu", "ch", "str", "ion", "ex",
                 "um", "ba", "zo", "ve", "th", "gr", "ul", "ek"]
    foreign = ["café", "naïve", "Größe", "日本語", "データ", "分块", "Ωμέγα", "ñandú", "Ελλάδα", "💾"]
    words = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(1500)]

    def sentence():
        n = rng.randint(4, 18)
        ws = [rng.choice(foreign) if rng.random() < 0.02 else rng.choice(words) for _ in range(n)]
        ws[0] = ws[0].capitalize()
        return " ".join(ws) + rng.choice([".", ".", ".", "?", "!", ";"])

    def paragraph():
        return " ".join(sentence() for _ in range(rng.randint(2, 25))) + "\n\n"

    pool = [paragraph() for _ in range(80)]
    out = []  # paragraphs written so far
    size = 0
    while size < target:
        r = rng.random()
        if r < 0.55 or len(out) < 10:
            piece = [rng.choice(pool) if rng.random() < 0.7 else paragraph()]
        elif r < 0.85:
            i = rng.randrange(len(out) - 3)
            piece = out[i:i + rng.randint(3, 12)]
        else:
            i = rng.randrange(len(out) - 3)
            piece = list(out[i:i + rng.randint(3, 12)])
            j = rng.randrange(len(piece))
            piece[j] = sentence() + " " + piece[j]  # a small edit inside a repeated run
        for p in piece:
            out.append(p)
            size += len(p.encode())
    return "".join(out).encode()


def make_zeros_mixed(rng, target):
    parts = []
    size = 0
    big_zero_done = False
    while size < target:
        r = rng.random()
        if r < 0.45:
            part = random_bytes(rng, rng.choice([1, 63, 64, 65, rng.randint(1, 4096), rng.randint(1, 300 * 1024)]))
        elif r < 0.85:
            n = rng.choice([1, 64, 4095, 4096, rng.randint(1, 65536), rng.randint(1, 1536 * 1024)])
            if not big_zero_done and size > target // 3:
                n, big_zero_done = 1536 * 1024 + rng.randint(0, 1023), True
            part = bytes(n)
        elif r < 0.93:
            part = b"\xff" * rng.randint(1, 200 * 1024)
        else:
            pattern = random_bytes(rng, rng.randint(1, 100))
            part = (pattern * (rng.randint(1, 100 * 1024) // len(pattern) + 1))
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def main():
    seed, directory = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(seed)
    files = {
        "random.bin": random_bytes(rng, 4 * 1024 * 1024 - 3),
        "text.txt": make_text(rng, 3 * 1024 * 1024),
        "zeros_mixed.bin": make_zeros_mixed(rng, 4 * 1024 * 1024),
        "edge_empty.bin": b"",
        "edge_1.bin": random_bytes(rng, 1),
        "edge_63.bin": random_bytes(rng, 63),
        "edge_1023.bin": random_bytes(rng, 1023),
        "edge_2047.bin": random_bytes(rng, 2047),
        "edge_4096.bin": random_bytes(rng, 4096),
        "edge_4096_const.bin": b"\xa5" * 4096,
        "edge_4097_zero.bin": bytes(4097),
        "edge_16384_const.bin": b"\x3c" * 16384,
        "edge_65536.bin": random_bytes(rng, 65536),
        "edge_65536_const.bin": b"\x5a" * 65536,
        "edge_524287.bin": random_bytes(rng, 512 * 1024 - 1),
        "edge_8388608_const.bin": b"\x96" * (8 * 1024 * 1024),
    }
    for name, data in files.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
        print(name, len(data))


if __name__ == "__main__":
    main()
