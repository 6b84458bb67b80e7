// Command generate writes reference vectors for Sonyflake IDs (classic v1
// layout) as TSV on standard output. Every id and every decomposed field comes
// from Sony's own package github.com/sony/sonyflake (root package, v1 API):
// IDs from (*Sonyflake).NextID or sonyflake.Compose, fields from
// sonyflake.Decompose. The only thing computed here is unix_ms, from the
// default start time documented by the package.
//
// Build offline against a local checkout; see README.md.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"runtime/debug"
	"sort"
	"time"

	"github.com/sony/sonyflake"
)

const (
	seed = 20140901 // fixed math/rand seed (seed+1 for the random ids, which are reproducible)

	perMachineGenerated = 600 // IDs taken from each generator in a tight loop
	perMachineKept      = 50  // rows written per machine ID
	randomRows          = 600
	uniformRows         = 290 // uniform non-negative int64 among the random rows
	composedRows        = 150 // realistic times, built with sonyflake.Compose
)

// The default start time of the v1 package ("If StartTime is 0, the start time
// of the Sonyflake is set to 2014-09-01 00:00:00 +0000 UTC"). Used only for unix_ms.
var defaultStart = time.Date(2014, 9, 1, 0, 0, 0, 0, time.UTC)

type row struct {
	id, t, seq, machine uint64
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "generate: "+format+"\n", args...)
	os.Exit(1)
}

// decompose calls Sony's Decompose and checks the keys this program relies on.
func decompose(id uint64) row {
	parts := sonyflake.Decompose(id)
	for _, k := range []string{"id", "msb", "time", "sequence", "machine-id"} {
		if _, ok := parts[k]; !ok {
			fail("Decompose(%d) has no key %q", id, k)
		}
	}
	if parts["id"] != id {
		fail("Decompose(%d)[\"id\"] = %d", id, parts["id"])
	}
	if parts["msb"] != 0 {
		fail("Decompose(%d)[\"msb\"] = %d, want 0 for a 63-bit id", id, parts["msb"])
	}
	return row{id: id, t: parts["time"], seq: parts["sequence"], machine: parts["machine-id"]}
}

func newGenerator(machine uint16) *sonyflake.Sonyflake {
	// StartTime left zero so that the package's own default applies.
	sf := sonyflake.NewSonyflake(sonyflake.Settings{
		MachineID: func() (uint16, error) { return machine, nil },
	})
	if sf == nil {
		fail("NewSonyflake returned nil for machine %d", machine)
	}
	return sf
}

// generated takes perMachineGenerated IDs from one generator and keeps
// perMachineKept of them: the first 10, 20 around the first sequence wrap
// (255 -> 0 with time + 1) and 20 random others, in generation order.
func generated(rng *rand.Rand, machine uint16) ([]row, int) {
	for attempt := 0; attempt < 5; attempt++ {
		sf := newGenerator(machine)
		ids := make([]uint64, perMachineGenerated)
		before := time.Now()
		for i := range ids { // tight loop: nothing else between the calls
			id, err := sf.NextID()
			if err != nil {
				fail("NextID: %v", err)
			}
			ids[i] = id
		}
		after := time.Now()

		rows := make([]row, len(ids))
		for i, id := range ids {
			rows[i] = decompose(id)
			r := rows[i]
			if r.machine != uint64(machine) {
				fail("id %d: machine-id %d, generator configured with %d", id, r.machine, machine)
			}
			if i > 0 && id <= ids[i-1] {
				fail("ids not increasing: %d after %d", id, ids[i-1])
			}
			ms := unixMs(r.t)
			if ms < before.UnixMilli()-1000 || ms > after.UnixMilli()+1000 {
				fail("id %d: unix_ms %d far from generation time %d..%d", id, ms, before.UnixMilli(), after.UnixMilli())
			}
		}

		wrap := -1
		for i := 1; i < len(rows); i++ {
			if rows[i-1].seq == 255 && rows[i].seq == 0 && rows[i].t == rows[i-1].t+1 {
				wrap = i
				break
			}
		}
		if wrap < 10 {
			continue // clock ticked too often (or at the very start); try again
		}

		keep := map[int]bool{}
		for i := 0; i < 10; i++ {
			keep[i] = true
		}
		for i := wrap - 10; i < wrap+10 && i < len(rows); i++ {
			keep[i] = true
		}
		for len(keep) < perMachineKept {
			keep[rng.Intn(len(rows))] = true
		}
		idx := make([]int, 0, len(keep))
		for i := range keep {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		out := make([]row, 0, len(idx))
		for _, i := range idx {
			out = append(out, rows[i])
		}
		return out, attempt + 1
	}
	fail("machine %d: no sequence wrap observed in 5 attempts", machine)
	return nil, 0
}

func unixMs(t uint64) int64 {
	return defaultStart.UnixMilli() + int64(t)*10
}

func randomIDs(rng *rand.Rand) []row {
	const (
		timeMax = uint64(1)<<39 - 1
		seqMax  = uint64(1)<<8 - 1
		machMax = uint64(1)<<16 - 1
		int63   = uint64(1)<<63 - 1
	)
	seen := map[uint64]bool{}
	var ids []uint64
	add := func(id uint64) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}

	// Edge cases.
	for _, id := range []uint64{
		0, 1, 2,
		int63, int63 - 1,
		1<<24 - 1, 1 << 24, 1<<24 + 1,
		timeMax << 24,        // time at its maximum, others 0
		seqMax << 16,         // sequence at its maximum, others 0
		machMax,              // machine at its maximum, others 0
		1 << 16,              // sequence 1
		1<<16 - 1, 1<<16 | 1, // machine/sequence boundaries
		1 << 62, 1<<62 - 1, // top time bit
		timeMax<<24 | machMax,    // time and machine at maximum
		timeMax<<24 | seqMax<<16, // time and sequence at maximum
	} {
		add(id)
	}

	start := len(ids)
	for len(ids) < start+uniformRows {
		add(uint64(rng.Int63()))
	}

	// Realistic IDs: times between the start time and 2040, built by Sony's Compose.
	sf := newGenerator(1)
	end := time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)
	span := end.UnixMilli() - defaultStart.UnixMilli()
	start = len(ids)
	for len(ids) < start+composedRows {
		t := time.UnixMilli(defaultStart.UnixMilli() + rng.Int63n(span)).UTC()
		seq := uint16(rng.Intn(256))
		mach := uint16(rng.Intn(65536))
		id, err := sonyflake.Compose(sf, t, seq, mach)
		if err != nil {
			fail("Compose(%v, %d, %d): %v", t, seq, mach, err)
		}
		r := decompose(id)
		if r.seq != uint64(seq) || r.machine != uint64(mach) {
			fail("Compose/Decompose disagree for %d", id)
		}
		add(id)
	}

	// The rest: each field independently 0, 1, its maximum, maximum-1 or random.
	pick := func(max uint64) uint64 {
		switch rng.Intn(5) {
		case 0:
			return 0
		case 1:
			return 1
		case 2:
			return max
		case 3:
			return max - 1
		default:
			return uint64(rng.Int63()) & max
		}
	}
	for len(ids) < randomRows {
		add(pick(timeMax)<<24 | pick(seqMax)<<16 | pick(machMax))
	}

	rows := make([]row, len(ids))
	for i, id := range ids {
		if id > int63 {
			fail("id %d is not a non-negative int64", id)
		}
		rows[i] = decompose(id)
	}
	return rows
}

func moduleInfo() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "build info unavailable"
	}
	for _, m := range bi.Deps {
		if m.Path == "github.com/sony/sonyflake" {
			if m.Replace != nil {
				return fmt.Sprintf("%s %s (replaced by %s)", m.Path, m.Version, m.Replace.Path)
			}
			return m.Path + " " + m.Version
		}
	}
	return "github.com/sony/sonyflake not found in build info"
}

func main() {
	commit := flag.String("commit", "", "commit of sony/sonyflake being built against (written to the header)")
	flag.Parse()
	if *commit == "" {
		fail("-commit is required (git rev-parse HEAD of the sony/sonyflake checkout)")
	}

	rng := rand.New(rand.NewSource(seed))

	machines := []uint16{0, 1, 255, 256, 65535}
	for len(machines) < 8 {
		m := uint16(rng.Intn(65536))
		dup := false
		for _, x := range machines {
			dup = dup || x == m
		}
		if !dup {
			machines = append(machines, m)
		}
	}

	var gen []row
	attempts := 0
	for _, m := range machines {
		rows, a := generated(rng, m)
		gen = append(gen, rows...)
		attempts += a
	}
	// Own source for the random ids, so that they do not depend on how many
	// draws the wall-clock-dependent selection above happened to take.
	random := randomIDs(rand.New(rand.NewSource(seed + 1)))

	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	p := func(format string, args ...interface{}) { fmt.Fprintf(w, format, args...) }

	p("# Sonyflake reference vectors (classic layout), produced by Sony's Go package\n")
	p("# %s, root package (v1 API), commit %s.\n", moduleInfo(), *commit)
	p("# Generator: idcodec test/vectors/sonyflake/generate.go, %s, math/rand seeds %d (machine IDs, row\n", runVersion(), seed)
	p("#   selection) and %d (random ids).\n", seed+1)
	p("# Layout: id = time<<24 | sequence<<16 | machine; 39 bits of time in units of 10 ms since the start\n")
	p("# time, 8 bits of sequence, 16 bits of machine ID; bit 63 is always 0.\n")
	p("# Columns (tab-separated): id time sequence machine unix_ms, all unsigned decimal.\n")
	p("# id: from sonyflake NextID / Compose, or chosen by the generator (see below).\n")
	p("# time, sequence, machine: sonyflake.Decompose(id)[\"time\"], [\"sequence\"], [\"machine-id\"].\n")
	p("# unix_ms: NOT from sonyflake; computed by the generator as %d + time*10, i.e. the package's\n", defaultStart.UnixMilli())
	p("#   default start time 2014-09-01T00:00:00Z in Unix milliseconds plus time in 10 ms units.\n")
	p("# Rows 1-%d: IDs from NewSonyflake(Settings{MachineID: ...}).NextID() with StartTime left zero\n", len(gen))
	p("#   (Sony's default start), machine IDs %v; %d IDs per machine taken in a tight\n", machines, perMachineGenerated)
	p("#   loop, %d kept per machine in generation order: the first 10, the 20 around the first sequence\n", perMachineKept)
	p("#   wrap (255 -> 0 with time+1), 20 random others. These depend on the wall clock at generation\n")
	p("#   (generated %s), so a regeneration gives different ids here.\n", time.Now().UTC().Format("2006-01-02"))
	p("# Rows %d-%d: non-negative int64 ids decomposed by Decompose: edge cases (0, 1, 2^63-1, 2^24-1, 2^24,\n", len(gen)+1, len(gen)+len(random))
	p("#   each field at its maximum with the others 0, ...), %d uniform random 63-bit ids, %d ids from\n", uniformRows, composedRows)
	p("#   sonyflake.Compose with times between 2014-09-01 and 2040-01-01, and ids whose fields are each\n")
	p("#   0, 1, max, max-1 or random. This part is deterministic (fixed seed).\n")
	for _, r := range append(gen, random...) {
		p("%d\t%d\t%d\t%d\t%d\n", r.id, r.t, r.seq, r.machine, unixMs(r.t))
	}
	if attempts != len(machines) {
		fmt.Fprintf(os.Stderr, "generate: note: %d generator attempts for %d machines\n", attempts, len(machines))
	}
}

func runVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown Go"
	}
	return bi.GoVersion
}
