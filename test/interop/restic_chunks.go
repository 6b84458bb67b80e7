// Reference side of test/integration/chunking_interop.sh for cdc_chunks(data, 'rabin', ...): cuts files with the real
// restic chunker (github.com/restic/chunker, Debian's golang-github-restic-chunker-dev) and prints one
// tab-separated line per chunk, ready for psql's \copy:
//
//	LABEL  FILE  INDEX  START  LENGTH  CUT
//
// FILE is the file's base name, INDEX counts the file's chunks from 1, CUT is restic's Chunk.Cut (unsigned 64-bit,
// decimal). Built in GOPATH mode, offline:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o restic_chunks test/interop/restic_chunks.go
//	restic_chunks LABEL MIN_SIZE MAX_SIZE AVERAGE_BITS FILE...
//
// The polynomial is restic's test polynomial 0x3DA3358B4DC173 (what cdc_chunks uses for seed 0), window 64.
// Exits 2 on bad arguments or I/O errors.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/restic/chunker"
)

const polynomial = chunker.Pol(0x3DA3358B4DC173)

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "restic_chunks: "+format+"\n", args...)
	os.Exit(2)
}

func parseUint(name, text string) uint {
	v, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		fail("bad %s %q: %v", name, text, err)
	}
	return uint(v)
}

func main() {
	if len(os.Args) < 6 {
		fail("usage: restic_chunks LABEL MIN_SIZE MAX_SIZE AVERAGE_BITS FILE...")
	}
	label := os.Args[1]
	minSize := parseUint("MIN_SIZE", os.Args[2])
	maxSize := parseUint("MAX_SIZE", os.Args[3])
	bits := parseUint("AVERAGE_BITS", os.Args[4])
	if !polynomial.Irreducible() {
		fail("polynomial %v is not irreducible", polynomial)
	}

	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	buf := make([]byte, maxSize)
	for _, path := range os.Args[5:] {
		f, err := os.Open(path)
		if err != nil {
			fail("%v", err)
		}
		c := chunker.NewWithBoundaries(f, polynomial, minSize, maxSize)
		c.SetAverageBits(int(bits))
		name := filepath.Base(path)
		var next uint // where the next chunk must start: chunks are contiguous
		for index := 1; ; index++ {
			chunk, err := c.Next(buf)
			if err == io.EOF {
				break
			}
			if err != nil {
				fail("%s: %v", path, err)
			}
			if chunk.Start != next || uint(len(chunk.Data)) != chunk.Length {
				fail("%s: chunk %d at %d+%d (data %d bytes) does not follow %d", path, index, chunk.Start,
					chunk.Length, len(chunk.Data), next)
			}
			next = chunk.Start + chunk.Length
			fmt.Fprintf(out, "%s\t%s\t%d\t%d\t%d\t%d\n", label, name, index, chunk.Start, chunk.Length, chunk.Cut)
		}
		if err := f.Close(); err != nil {
			fail("%v", err)
		}
	}
}
