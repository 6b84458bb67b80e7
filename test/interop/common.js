'use strict';
// Shared parts of the npm interop tests (hashids_interop.js, sqids_interop.js, ff1_interop.js, typeid_interop.js,
// snowflake_interop.js):
// the TAP output, the pinned package check, the settings from the environment, the seeded random generator, the
// psql session that computes the SQL results, the comparison and its report.
//
// Each test prints TAP (the Test Anything Protocol) on stdout and nothing else: one test per kind of check (a SQL
// function, or a function on one kind of input), "ok N - ..." when every case of it agrees with the reference,
// "not ok N - ..." with its first mismatches as "# " diagnostics, notes and the run's figures as diagnostics, and
// the plan "1..N" at the end. Exit status: 0 when no test failed, else 1. Something that stops the test (the
// reference missing, psql failing) is one failed test, then the plan.

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');

// ---------------------------------------------------------------- TAP
let tapCount = 0;
let tapFailed = 0;
// A description on one line, '#' escaped as TAP requires.
const tapText = (s) => String(s).replace(/\n/g, ' ').replace(/#/g, '\\#');
function tapDiag(text) {
    for (const line of String(text).split('\n')) console.log(`# ${line}`);
}
function tapOk(description) {
    tapCount++;
    console.log(`ok ${tapCount} - ${tapText(description)}`);
}
function tapNotOk(description, detail) {
    tapCount++;
    tapFailed++;
    console.log(`not ok ${tapCount} - ${tapText(description)}`);
    if (detail) tapDiag(detail);
}
function tapSkip(reason) {
    tapCount++;
    console.log(`ok ${tapCount} # SKIP ${tapText(reason)}`);
}
// The plan, and the exit status.
function tapDone() {
    if (tapCount === 0) tapNotOk('the test ran at least one check');
    console.log(`1..${tapCount}`);
    process.exit(tapFailed > 0 ? 1 : 0);
}
// What stops the test before its comparison: one failed test saying what could not be done, the plan, exit 1.
function fatal(description, detail) {
    tapNotOk(description, detail);
    tapDone();
}

// The version in node_modules/<pkg>/package.json; stops the test (fatal) unless it is `expected`.
function packageVersion(label, pkg, expected) {
    let version;
    try {
        version = JSON.parse(fs.readFileSync(path.join(__dirname, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    } catch (e) {
        version = `nothing (${e.message})`;
    }
    if (version !== expected) fatal(`${pkg} ${expected} is in ${__dirname}/node_modules`, `found ${version}`);
    return version;
}

// IDCODEC_INTEROP_SEED (a uint32; stops the test when it is anything else), else a random seed.
function interopSeed(label) {
    const seedText = process.env.IDCODEC_INTEROP_SEED;
    if (seedText !== undefined && seedText !== '') {
        if (!/^\d+$/.test(seedText) || Number(seedText) > 0xffffffff)
            fatal(`IDCODEC_INTEROP_SEED is an integer 0..4294967295`, `got ${seedText}`);
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
// Stops the test (fatal) when psql fails, keeping the inputs.
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
        fatal(`psql computes the SQL results (${label})`,
            `psql failed (status ${psql.status}${psql.error ? `, ${psql.error.message}` : ''})\n`
            + `${(psql.stderr || '').trim()}\n(inputs kept in ${dir}; seed ${seed})`);
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

// The comparison of SQL results ({v} or {e}, as sqlWrapper's default gives them) with the reference's, by kind of
// check (`what`: a SQL function, or one on a kind of input). comparison(declared) takes the kinds the test makes,
// in the order they are reported (every one is reported, one that met no case as skipped; a kind not declared is
// reported after them). check() counts a check and records a mismatch ({c, what, js, sql, sqlCall}) unless SQL gave
// exactly `expected`; raises() does the same unless SQL raised `sqlstate` (the reference refusing the input as
// `refusal` says); count(what) counts a check the caller made itself (pushing any mismatch of it to `mismatches`);
// missingRow(c) records a case SQL gave no row for; `checks` is the number so far.
function comparison(declared = []) {
    const mismatches = [];
    const counts = new Map(declared.map((what) => [what, 0]));
    let checks = 0;
    const count = (what) => {
        checks++;
        counts.set(what, (counts.get(what) || 0) + 1);
    };
    return {
        mismatches,
        counts,
        get checks() { return checks; },
        count,
        check(c, what, sqlResult, expected, sqlCall) {
            count(what);
            if (sqlResult && !('e' in sqlResult) && sqlResult.v === expected) return;
            const sql = !sqlResult ? '(no row)' : 'e' in sqlResult ? `ERROR ${sqlResult.e}` : show(sqlResult.v);
            mismatches.push({ c, what, js: show(expected), sql, sqlCall });
        },
        raises(c, what, sqlResult, sqlstate, refusal, sqlCall) {
            count(what);
            if (sqlResult && 'e' in sqlResult && sqlResult.e.startsWith(`${sqlstate}: `)) return;
            const sql = !sqlResult ? '(no row)' : 'e' in sqlResult ? `ERROR ${sqlResult.e}` : show(sqlResult.v);
            mismatches.push({ c, what, js: `${refusal} (SQL: ERROR ${sqlstate})`, sql, sqlCall });
        },
        missingRow(c) {
            mismatches.push({ c, what: 'row', js: '-', sql: '(no row returned)', sqlCall: '' });
        },
    };
}

// The first SHOW mismatches ({c, what, js, sql, sqlCall}) as lines, each with the case as describe(c) gives it
// ({title, lines}), the reference's and SQL's results and a query reproducing it; then how many were left out.
function mismatchLines(mismatches, reference, describe) {
    const out = [];
    for (const m of mismatches.slice(0, SHOW)) {
        const { title, lines } = describe(m.c);
        out.push(`MISMATCH ${m.what}, case ${m.c.i} (${title}):`);
        for (const line of lines) out.push(`  ${line}`);
        out.push(`  ${reference}: ${m.js}   SQL: ${m.sql}`);
        if (m.sqlCall) out.push(`  repro: SELECT ${m.sqlCall};`);
    }
    if (mismatches.length > SHOW) out.push(`... and ${mismatches.length - SHOW} more (IDCODEC_INTEROP_SHOW=N shows more)`);
    return out.join('\n');
}

// The comparison's tests: first that SQL gave a row for every case, then one per kind of check, passed when every
// case of that kind agreed with the reference; a failed one shows its first mismatches.
function report(compared, cases, reference, describe) {
    const byWhat = new Map();
    for (const m of compared.mismatches) {
        if (!byWhat.has(m.what)) byWhat.set(m.what, []);
        byWhat.get(m.what).push(m);
    }
    const result = (description, list) => {
        if (list.length === 0) tapOk(description);
        else tapNotOk(`${description}: ${list.length} differ`, mismatchLines(list, reference, describe));
    };
    result(`SQL gives a row of results for every case (${cases.length} cases)`, byWhat.get('row') || []);
    for (const [what, n] of compared.counts) {
        if (n === 0) tapSkip(`${what}: no case of this kind in this run`);
        else result(`${what} agrees with ${reference} (${n} cases)`, byWhat.get(what) || []);
    }
    // (a mismatch recorded under a kind that counted no check: reported all the same)
    for (const [what, list] of byWhat) {
        if (what !== 'row' && !compared.counts.has(what)) result(what, list);
    }
}

module.exports = {
    tapOk, tapNotOk, tapSkip, tapDiag, tapDone, fatal,
    packageVersion, interopSeed, CASES, SHOW, seededRandom, range, ASCII, UNICODE_POOLS, UNICODE_ALL, NON_BMP,
    sqlWrapper, runSql, show, lit, comparison, report,
};
