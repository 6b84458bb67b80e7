module idcodec/sonyflake-vectors

go 1.19

require github.com/sony/sonyflake v1.3.0

// Offline build: point this at a checkout (or `git archive`) of sony/sonyflake.
// See README.md for building against another path without editing this file.
replace github.com/sony/sonyflake => /tmp/sonyflake-src
