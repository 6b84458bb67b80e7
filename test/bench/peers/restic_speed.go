// The restic side of test/bench/peers/run.sh: times restic's chunker (github.com/restic/chunker, Debian's
// golang-github-restic-chunker-dev) over a file held in memory, as chunker_speed.cpp times idcodec's:
//
//	restic_speed FILE MIN_SIZE MAX_SIZE AVERAGE_BITS ROUNDS
//
// prints "NANOSECONDS CHUNKS", the best of ROUNDS passes. The polynomial is restic's test polynomial
// 0x3DA3358B4DC173, which cdc_chunks uses for seed 0. Built in GOPATH mode, offline.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/restic/chunker"
)

func argument(i int) uint64 {
	v, err := strconv.ParseUint(os.Args[i], 10, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "restic_speed: bad argument %q: %v\n", os.Args[i], err)
		os.Exit(2)
	}
	return v
}

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: restic_speed FILE MIN_SIZE MAX_SIZE AVERAGE_BITS ROUNDS")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "restic_speed:", err)
		os.Exit(2)
	}
	minSize, maxSize, bits, rounds := argument(2), argument(3), argument(4), argument(5)
	buf := make([]byte, maxSize)
	best, chunks := time.Duration(1<<62), 0
	for r := uint64(0); r < rounds; r++ {
		start := time.Now()
		c := chunker.NewWithBoundaries(bytes.NewReader(data), chunker.Pol(0x3DA3358B4DC173), uint(minSize), uint(maxSize))
		c.SetAverageBits(int(bits))
		n := 0
		for {
			if _, err := c.Next(buf); err == io.EOF {
				break
			} else if err != nil {
				fmt.Fprintln(os.Stderr, "restic_speed:", err)
				os.Exit(2)
			}
			n++
		}
		if elapsed := time.Since(start); elapsed < best {
			best, chunks = elapsed, n
		}
	}
	fmt.Printf("%d %d\n", best.Nanoseconds(), chunks)
}
