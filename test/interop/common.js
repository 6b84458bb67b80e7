'use strict';
// Shared parts of the npm interop tests (hashids_interop.js, sqids_interop.js, ff1_interop.js, typeid_interop.js,
// snowflake_interop.js):
// the pinned package check, the settings from the environment, the seeded random generator, the psql session that
// computes the SQL results, the comparison and the mismatch report. Every message is prefixed with the test's label
// ("hashids interop: ...").

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');

// The version in node_modules/<pkg>/package.json; exits 2 (the test could not run) unless it is `expected`.
function packageVersion(label, pkg, expected) {
    const version = JSON.parse(
        fs.readFileSync(path.join(__dirname, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    if (version !== expected) {
        console.error(`${label} interop: expected ${pkg} ${expected} in ${__dirname}/node_modules, found ${version}`);
        process.exit(2);
    }
    return version;
}

// IDCODEC_INTEROP_SEED (a uint32; exits 2 when it is anything else), else a random seed.
function interopSeed(label) {
    const seedText = process.env.IDCODEC_INTEROP_SEED;
    if (seedText !== undefined && seedText !== '') {
        if (!/^\d+$/.test(seedText) || Number(seedText) > 0xffffffff) {
            console.error(`${label} interop: IDCODEC_INTEROP_SEED must be an integer 0..4294967295 (got ${seedText})`);
            process.exit(2);
        }
        return Number(seedText);
    }
    return crypto.randomInt(0, 0xffffffff);
}

const CASES = Number(process.env.IDCODEC_INTEROP_CASES || 3000); // random cases
const SHOW = Number(process.env.IDCODEC_INTEROP_SHOW || 5); // mismatches printed in full

// ---------------------------------------------------------------- seeded PRNG (splitmix32 → sfc32)
function splitmix32(x) {
    return () => {
        x = (x + 0x9e3779b9) | 0;
        let z = x;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
        return (z ^ (z >>> 16)) >>> 0;
    };
}

// The generator and the random choices built on it; the same seed gives the same sequence.
const INT64_MAX = (1n << 63n) - 1n;

function seededRandom(seed) {
    const sm = splitmix32(seed);
    let [sa, sb, sc, sd] = [sm(), sm(), sm(), sm()];
    function u32() {
        const t = (((sa + sb) | 0) + sd) | 0;
        sd = (sd + 1) | 0;
        sa = sb ^ (sb >>> 9);
        sb = (sc + (sc << 3)) | 0;
        sc = (sc << 21) | (sc >>> 11);
        sc = (sc + t) | 0;
        return t >>> 0;
    }
    for (let i = 0; i < 16; i++) u32();
    const rnd = () => u32() / 4294967296;
    const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
    const pick = (a) => a[Math.floor(rnd() * a.length)];
    const chance = (p) => rnd() < p;
    function weighted(table) { // [[weight, fn], ...]
        let r = rnd() * table.reduce((s, [w]) => s + w, 0);
        for (const [w, f] of table) { if ((r -= w) < 0) return f(); }
        return table[table.length - 1][1]();
    }
    function shuffled(a) {
        const b = [...a];
        for (let i = b.length - 1; i > 0; i--) { const j = int(0, i); [b[i], b[j]] = [b[j], b[i]]; }
        return b;
    }
    const randomString = (pool, len) => Array.from({ length: len }, () => pick(pool)).join('');
    function uniqueFrom(pool, n) { return shuffled([...new Set(pool)]).slice(0, n); }
    function bits(n) { // uniform BigInt in [0, 2^n)
        let v = 0n;
        for (let got = 0; got < n; got += 32) v = (v << 32n) | BigInt(u32());
        return v & ((1n << BigInt(n)) - 1n);
    }
    // A BigInt in 0 ... 2^63 - 1, weighted toward small numbers and the edges of 32, 53 and 63 bits.
    function bigint63() {
        return weighted([
            [25, () => BigInt(int(0, 100))],
            [5, () => 0n],
            [12, () => BigInt(int(0, 0x7fffffff))],
            [18, () => (1n << BigInt(int(0, 62))) + BigInt(pick([0, 0, -1, 1]))],
            [10, () => pick([(1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, INT64_MAX, INT64_MAX - 1n,
                (1n << 32n) - 1n, 1n << 32n, (1n << 31n) - 1n, 1n << 62n, 4611686018427387903n])],
            [20, () => bits(int(33, 63))],
            [10, () => bits(63)],
        ]);
    }
    return { u32, rnd, int, pick, chance, weighted, shuffled, randomString, uniqueFrom, bits, bigint63 };
}

// ---------------------------------------------------------------- character pools
const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => String.fromCodePoint(lo + i));
const ASCII = range(0x20, 0x7e); // printable ASCII incl. space and every regexp metacharacter (95)
// Unicode alphabets' characters by script (no surrogates; some beyond the BMP, 4 UTF-8 bytes each).
const UNICODE_POOLS = {
    latin1: range(0xc0, 0xff).filter((c) => c !== '\u00d7' && c !== '\u00f7'),
    greek: range(0x391, 0x3a1).concat(range(0x3a3, 0x3c9)),
    cyrillic: range(0x410, 0x44f),
    combining: range(0x300, 0x36f),
    cjk: range(0x4e00, 0x4fff),
    hangul: range(0xac00, 0xac7f),
    hiragana: range(0x3041, 0x3096),
    emoji: range(0x1f600, 0x1f64f).concat(range(0x1f300, 0x1f37f)),
    mathAlnum: range(0x1d400, 0x1d4ff), // non-BMP
    cjkExtB: range(0x20000, 0x2007f), // non-BMP
    symbols: range(0x2190, 0x21ff).concat(range(0x2200, 0x22ff)),
    spaces: ['\u00a0', '\u2003', '\u3000', ' '],
};
const UNICODE_ALL = Object.values(UNICODE_POOLS).flat();
const NON_BMP = UNICODE_POOLS.emoji.concat(UNICODE_POOLS.mathAlnum, UNICODE_POOLS.cjkExtB);

// ---------------------------------------------------------------- SQL results (one psql session, one query)
const sqlQuote = (s) => `'${s.replace(/'/g, "''")}'`;

// A function pg_temp.<name>(<args>) giving {"v": <call>}, or <errorObject> (jsonb built from SQLSTATE and SQLERRM;
// by default {"e": "<SQLSTATE>: <message>"}) when the call raises: an SQL error becomes a value instead of aborting
// the run.
const sqlWrapper = (name, args, call, errorObject = "jsonb_build_object('e', SQLSTATE || ': ' || SQLERRM)") => `
CREATE FUNCTION pg_temp.${name}(${args}) RETURNS jsonb LANGUAGE plpgsql AS $fn$
BEGIN
    RETURN jsonb_build_object('v', ${call});
EXCEPTION WHEN OTHERS THEN
    RETURN ${errorObject};
END $fn$;`;

// Loads `records` (one JSON line each) into the temp table interop_cases(line) in one psql session (PGHOST, PGPORT,
// PGUSER, PGDATABASE from the environment; $PSQL or psql), creates `functions` (SQL texts), runs `query`, which gives
// one JSON object with the case number i per row, and returns those objects by i and the milliseconds psql took.
// Exits 2 when psql fails, keeping the inputs.
function runSql({ label, seed, records, functions, query }) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `idcodec-${label}-interop-`));
    const inputFile = path.join(dir, 'cases.jsonl');
    const outputFile = path.join(dir, 'results.jsonl');
    const scriptFile = path.join(dir, 'interop.sql');
    fs.writeFileSync(inputFile, records.map((r) => JSON.stringify(r)).join('\n') + '\n', 'utf8');
    fs.writeFileSync(scriptFile, `
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS idcodec;
CREATE TEMP TABLE interop_cases (line text);
\\copy interop_cases FROM ${sqlQuote(inputFile)} WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')
${functions.join('\n')}
\\pset format unaligned
\\pset tuples_only on
\\o ${sqlQuote(outputFile)}
${query}
\\o
`, 'utf8');

    const t1 = Date.now();
    const psql = spawnSync(process.env.PSQL || 'psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', scriptFile], {
        env: { ...process.env, PGCLIENTENCODING: 'UTF8' }, encoding: 'utf8', maxBuffer: 64 << 20,
    });
    const sqlMillis = Date.now() - t1;
    if (psql.error || psql.status !== 0) {
        console.error(`${label} interop: psql failed (status ${psql.status}${psql.error ? `, ${psql.error.message}` : ''})`);
        console.error((psql.stderr || '').trim());
        console.error(`(inputs kept in ${dir}; seed ${seed})`);
        process.exit(2);
    }
    const results = new Map();
    for (const line of fs.readFileSync(outputFile, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const r = JSON.parse(line);
        results.set(r.i, r);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    return { results, sqlMillis };
}

// ---------------------------------------------------------------- compare
const show = (v) => (v === null || v === undefined ? 'NULL' : JSON.stringify(v));
// An SQL literal (E'...') of any string, for the repro lines.
const lit = (s) => `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;

// The comparison of SQL results ({v} or {e}, as sqlWrapper's default gives them) with the reference's: check()
// counts a check and records a mismatch ({c, what, js, sql, sqlCall}) unless SQL gave exactly `expected`; raises()
// does the same unless SQL raised `sqlstate` (the reference refusing the input as `refusal` says); count() counts a
// check the caller made itself (pushing any mismatch of it); `checks` is the number so far.
function comparison() {
    const mismatches = [];
    let checks = 0;
    return {
        mismatches,
        get checks() { return checks; },
        count() { checks++; },
        check(c, what, sqlResult, expected, sqlCall) {
            checks++;
            if (sqlResult && !('e' in sqlResult) && sqlResult.v === expected) return;
            const sql = !sqlResult ? '(no row)' : 'e' in sqlResult ? `ERROR ${sqlResult.e}` : show(sqlResult.v);
            mismatches.push({ c, what, js: show(expected), sql, sqlCall });
        },
        raises(c, what, sqlResult, sqlstate, refusal, sqlCall) {
            checks++;
            if (sqlResult && 'e' in sqlResult && sqlResult.e.startsWith(`${sqlstate}: `)) return;
            const sql = !sqlResult ? '(no row)' : 'e' in sqlResult ? `ERROR ${sqlResult.e}` : show(sqlResult.v);
            mismatches.push({ c, what, js: `${refusal} (SQL: ERROR ${sqlstate})`, sql, sqlCall });
        },
    };
}

// Prints the first SHOW mismatches ({c, what, js, sql, sqlCall}), each with the case as describe(c) gives it
// ({title, lines}), the reference's and SQL's results and a query reproducing it; then how many were left out.
function printMismatches(mismatches, reference, describe) {
    for (const m of mismatches.slice(0, SHOW)) {
        const { title, lines } = describe(m.c);
        console.log(`MISMATCH ${m.what}, case ${m.c.i} (${title}):`);
        for (const line of lines) console.log(`  ${line}`);
        console.log(`  ${reference}: ${m.js}   SQL: ${m.sql}`);
        console.log(`  repro: SELECT ${m.sqlCall};`);
    }
    if (mismatches.length > SHOW) console.log(`... and ${mismatches.length - SHOW} more mismatches (IDCODEC_INTEROP_SHOW=N prints more)`);
}

// The last line, and the exit status: 0 when every check matched, else 1.
function finish(label, cases, mismatches, seed) {
    console.log(`${label} interop: ${cases.length} cases, ${mismatches.length} mismatches (seed ${seed})`);
    process.exit(mismatches.length > 0 ? 1 : 0);
}

module.exports = {
    packageVersion, interopSeed, CASES, SHOW, seededRandom, range, ASCII, UNICODE_POOLS, UNICODE_ALL, NON_BMP,
    sqlWrapper, runSql, show, lit, comparison, printMismatches, finish,
};
