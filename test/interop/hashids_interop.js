'use strict';
// Interop test: idcodec's hashids_* SQL functions against the real hashids.js 2.3.0 from npm.
//
// Generates random cases (seed from IDCODEC_INTEROP_SEED, else random; printed), computes the reference results
// with hashids.js, loads all cases into PostgreSQL in one psql session (PGHOST/PGPORT/PGUSER/PGDATABASE from the
// environment), computes the SQL results in one query and compares. Prints TAP (common.js): a test per SQL function
// and kind of input, passed when every case agrees with hashids.js; exit status 0 when all passed, else 1 (also
// when the test could not run: hashids.js missing or of another version, psql failed).
//
// Environment: IDCODEC_INTEROP_SEED (uint32), IDCODEC_INTEROP_CASES (number-list cases, default 3000; a sixth as
// many hex cases come on top), IDCODEC_INTEROP_SHOW (mismatches printed in full, default 5), PSQL (psql binary).

const {
    packageVersion, interopSeed, CASES, seededRandom, range, ASCII, UNICODE_POOLS, UNICODE_ALL, NON_BMP,
    sqlWrapper, runSql, show, lit, comparison, report, tapDiag, tapDone,
} = require('./common');

const EXPECTED_VERSION = '2.3.0';
const pkgVersion = packageVersion('hashids', 'hashids', EXPECTED_VERSION);
const Hashids = require('hashids'); // CommonJS export is the class itself

const DEFAULT_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890';
const SEPS = 'cfhistuCFHISTU';
const INT64_MAX = (1n << 63n) - 1n;

// ---------------------------------------------------------------- seed and random choices (common.js)
const seed = interopSeed('hashids');
const NUMBER_CASES = CASES;
const HEX_CASES = Math.max(1, Math.round(NUMBER_CASES / 6));

const { u32, int, pick, chance, weighted, shuffled, randomString, uniqueFrom, bits, bigint63 } = seededRandom(seed);

// ---------------------------------------------------------------- character pools (code points, no surrogates)
const ASCII_NO_SEPS = ASCII.filter((c) => !SEPS.includes(c));

// ---------------------------------------------------------------- generators
function genSalt() {
    return weighted([
        [12, () => ''],
        [25, () => randomString(ASCII.filter((c) => c !== ' '), int(1, 30))],
        [10, () => pick(['this is my salt', 'my salt', ' leading', 'trailing ', 'a  b  c', ' '])],
        [10, () => randomString(ASCII, int(1, 40))], // with spaces and metacharacters
        [15, () => randomString(ASCII.concat(UNICODE_ALL), int(1, 25))],
        [8, () => randomString(NON_BMP, int(1, 10)) + randomString(ASCII, int(0, 5))],
        [5, () => pick(['\u{1F600}', '日本語のソルト', 'ñandú', '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}', 'e\u0301'])],
        [3, () => randomString(ASCII, int(1, 10)) + pick(['\t', '\n', '\\', "'", '"', '\r\n']) + randomString(ASCII, int(0, 10))],
        [8, () => randomString(ASCII, int(100, 2000))],
        [4, () => randomString(ASCII.concat(UNICODE_ALL), int(100, 1000))],
    ]);
}

function withDuplicates(chars) {
    const out = [...chars];
    const extra = int(1, Math.max(1, Math.floor(chars.length / 2)));
    for (let i = 0; i < extra; i++) out.splice(int(0, out.length), 0, pick(chars));
    return out;
}

function genAlphabet() {
    const [kind, chars] = weighted([
        [14, () => ['default', Array.from(DEFAULT_ALPHABET)]],
        [4, () => ['default-shuffled', shuffled(DEFAULT_ALPHABET)]],
        [22, () => ['ascii', uniqueFrom(ASCII, int(16, 90))]],
        [8, () => ['ascii-16', uniqueFrom(ASCII, 16)]],
        [10, () => ['ascii-dup', withDuplicates(uniqueFrom(ASCII, int(16, 60)))]],
        [8, () => { // always contains a space
            const c = uniqueFrom(ASCII.filter((x) => x !== ' '), int(15, 70));
            c.splice(int(0, c.length), 0, ' ');
            return ['ascii-space', c];
        }],
        [7, () => ['seps-heavy', shuffled([...SEPS].slice(0, int(10, 14)).concat(uniqueFrom(ASCII_NO_SEPS, 6)))
            .filter((c, i, a) => a.indexOf(c) === i)]],
        [5, () => ['seps-2-others', shuffled([...SEPS].concat(uniqueFrom(ASCII_NO_SEPS, int(2, 4))))]],
        [6, () => ['no-seps', uniqueFrom(ASCII_NO_SEPS, int(16, 60))]],
        [10, () => ['unicode', uniqueFrom(UNICODE_ALL.concat(ASCII), int(16, 80))]],
        [4, () => ['unicode-dup', withDuplicates(uniqueFrom(UNICODE_ALL, int(16, 40)))]],
        [3, () => ['emoji', uniqueFrom(UNICODE_POOLS.emoji, int(16, 64))]],
        [3, () => ['cjk', uniqueFrom(UNICODE_POOLS.cjk.concat(UNICODE_POOLS.cjkExtB), int(16, 100))]],
        [3, () => ['unicode+seps', shuffled(uniqueFrom(NON_BMP, int(3, 10)).concat([...SEPS], uniqueFrom(ASCII_NO_SEPS, 2)))]],
        [2, () => ['unicode-large', uniqueFrom(UNICODE_ALL, int(150, 400))]],
    ]);
    if (new Set(chars).size < 16) throw new Error(`generator bug: ${kind} alphabet with < 16 unique characters`);
    return { kind, alphabet: chars.join('') };
}

function genMinLength() {
    return weighted([
        [35, () => 0],
        [20, () => int(1, 10)],
        [20, () => int(11, 40)],
        [20, () => int(41, 100)],
        [3, () => pick([1000, int(500, 1200)])],
    ]);
}

function genNumbers() {
    const n = weighted([[35, () => 1], [25, () => 2], [15, () => 3], [10, () => 4], [8, () => 5], [7, () => 6]]);
    return Array.from({ length: n }, bigint63).map((v) => (v < 0n ? 0n : v));
}

function genHex() {
    const digits = Array.from('0123456789abcdefABCDEF');
    let h = randomString(digits, int(1, 72));
    if (chance(0.15)) h = '0'.repeat(int(1, 14)) + h;
    if (chance(0.1)) h = h.toUpperCase();
    return h;
}

// One alphabet character replaced by another (mostly), or a character dropped, duplicated, or two swapped.
function tamper(id, alphabet) {
    const cps = Array.from(id);
    const uniq = [...new Set(Array.from(alphabet))];
    for (let attempt = 0; attempt < 20; attempt++) {
        const t = [...cps];
        const p = int(0, t.length - 1);
        weighted([
            [80, () => { t[p] = pick(uniq.filter((c) => c !== t[p])); }],
            [7, () => { if (t.length > 1) t.splice(p, 1); }],
            [7, () => { t.splice(p, 0, t[p]); }],
            [6, () => { if (p + 1 < t.length) [t[p], t[p + 1]] = [t[p + 1], t[p]]; }],
        ]);
        const s = t.join('');
        if (s !== id) return s;
    }
    return null;
}

// ---------------------------------------------------------------- reference results (hashids.js)
function jsDecode(h, id) { // [numbers as BigInt] or {error}
    try { return h.decode(id).map((v) => BigInt(v)); } catch (e) { return { error: String(e.message || e) }; }
}
const decodeText = (r) => (r.error || r.length === 0 || r.some((v) => v > INT64_MAX) ? '{}' : `{${r.join(',')}}`);
const decodeOneText = (r) => (r.error || r.length !== 1 || r[0] > INT64_MAX ? null : r[0].toString());
function jsDecodeHex(h, id, decoded) { // hashids_decode_hex is NULL exactly where hashids.js decode gives []
    if (decoded.error || decoded.length === 0) return null;
    return h.decodeHex(id);
}

const t0 = Date.now();
const cases = [];
const jsNotes = []; // hashids.js not round-tripping its own output (information, not an idcodec mismatch)
for (let i = 0; i < NUMBER_CASES + HEX_CASES; i++) {
    const salt = genSalt();
    const { kind: alphabetKind, alphabet } = genAlphabet();
    const minLength = genMinLength();
    const h = new Hashids(salt, minLength, alphabet);
    const c = { i, salt, alphabet, alphabetKind, minLength };
    if (i < NUMBER_CASES) {
        c.kind = 'numbers';
        c.numbers = genNumbers();
        c.id = h.encode(c.numbers);
        if (c.id === '') throw new Error(`hashids.js encoded ${c.numbers} to '' (seed ${seed}, case ${i})`);
    } else {
        c.kind = 'hex';
        c.hex = genHex();
        c.id = h.encodeHex(c.hex);
    }
    c.decoded = jsDecode(h, c.id);
    if (c.kind === 'numbers' && decodeText(c.decoded) !== `{${c.numbers.join(',')}}`)
        jsNotes.push(`case ${i}: hashids.js decode(${JSON.stringify(c.id)}) gave ${decodeText(c.decoded)}`);
    if (c.kind === 'hex') {
        c.decodedHex = jsDecodeHex(h, c.id, c.decoded);
        if (c.decodedHex !== c.hex.toLowerCase())
            jsNotes.push(`case ${i}: hashids.js decodeHex(${JSON.stringify(c.id)}) gave ${JSON.stringify(c.decodedHex)}`);
    }
    if (chance(0.5)) {
        c.tampered = tamper(c.id, alphabet);
        if (c.tampered !== null) {
            c.tamperedDecoded = jsDecode(h, c.tampered);
            if (c.kind === 'hex') c.tamperedDecodedHex = jsDecodeHex(h, c.tampered, c.tamperedDecoded);
        }
    }
    cases.push(c);
}
const jsMillis = Date.now() - t0;

// ---------------------------------------------------------------- SQL results (one psql session, one query)
// Each call is wrapped so an SQL error becomes a reported mismatch instead of aborting the run.
const { results, sqlMillis } = runSql({
    label: 'hashids',
    seed,
    records: cases.map((c) => ({
        i: c.i, k: c.kind === 'numbers' ? 'n' : 'h', s: c.salt, a: c.alphabet, m: c.minLength,
        n: c.numbers ? c.numbers.map(String) : null, h: c.hex ?? null, id: c.id, t: c.tampered ?? null,
    })),
    functions: [
        sqlWrapper('enc', 'n bigint[], s text, m int, a text', 'hashids_encode(n, s, m, a)'),
        sqlWrapper('enc1', 'n bigint, s text, m int, a text', 'hashids_encode(n, s, m, a)'),
        sqlWrapper('dec', 'id text, s text, m int, a text', 'hashids_decode(id, s, m, a)::text'),
        sqlWrapper('dec1', 'id text, s text, m int, a text', 'hashids_decode_one(id, s, m, a)::text'),
        sqlWrapper('ench', 'h text, s text, m int, a text', 'hashids_encode_hex(h, s, m, a)'),
        sqlWrapper('dech', 'id text, s text, m int, a text', 'hashids_decode_hex(id, s, m, a)'),
    ],
    query: `SELECT jsonb_build_object(
           'i', i,
           'encode', CASE WHEN k = 'n' THEN pg_temp.enc(n, s, m, a) END,
           'encode_single', CASE WHEN k = 'n' AND cardinality(n) = 1 THEN pg_temp.enc1(n[1], s, m, a) END,
           'encode_hex', CASE WHEN k = 'h' THEN pg_temp.ench(h, s, m, a) END,
           'decode', pg_temp.dec(id, s, m, a),
           'decode_one', pg_temp.dec1(id, s, m, a),
           'decode_hex', CASE WHEN k = 'h' THEN pg_temp.dech(id, s, m, a) END,
           'tampered_decode', CASE WHEN t IS NOT NULL THEN pg_temp.dec(t, s, m, a) END,
           'tampered_decode_one', CASE WHEN t IS NOT NULL THEN pg_temp.dec1(t, s, m, a) END,
           'tampered_decode_hex', CASE WHEN k = 'h' AND t IS NOT NULL THEN pg_temp.dech(t, s, m, a) END)::text
FROM (SELECT (j->>'i')::int AS i, j->>'k' AS k, j->>'s' AS s, (j->>'m')::int AS m, j->>'a' AS a,
             j->>'h' AS h, j->>'id' AS id, j->>'t' AS t,
             CASE WHEN jsonb_typeof(j->'n') = 'array'
                  THEN ARRAY(SELECT x::bigint FROM jsonb_array_elements_text(j->'n') WITH ORDINALITY AS e(x, o)
                             ORDER BY o) END AS n
      FROM (SELECT line::jsonb AS j FROM interop_cases) raw) c
ORDER BY i;`,
});

// ---------------------------------------------------------------- compare
const compared = comparison(['hashids_encode(numbers[])', 'hashids_encode(number)', 'hashids_encode_hex',
    'hashids_decode_hex', 'hashids_decode', 'hashids_decode_one', 'hashids_decode (tampered id)',
    'hashids_decode_one (tampered id)', 'hashids_decode_hex (tampered id)']);
const { check } = compared;
let tamperedCount = 0;
let tamperedAccepted = 0;
const beyondBigint = []; // tampered hex ids hashids.js decodes to a number above 2^63-1, where SQL gives NULL
for (const c of cases) {
    const r = results.get(c.i);
    const settings = `${lit(c.salt)}, ${c.minLength}, ${lit(c.alphabet)}`;
    if (!r) { compared.missingRow(c); continue; }
    if (c.kind === 'numbers') {
        const arr = `'{${c.numbers.join(',')}}'::bigint[]`;
        check(c, 'hashids_encode(numbers[])', r.encode, c.id, `hashids_encode(${arr}, ${settings})`);
        if (c.numbers.length === 1)
            check(c, 'hashids_encode(number)', r.encode_single, c.id, `hashids_encode(${c.numbers[0]}::bigint, ${settings})`);
    } else {
        check(c, 'hashids_encode_hex', r.encode_hex, c.id, `hashids_encode_hex(${lit(c.hex)}, ${settings})`);
        check(c, 'hashids_decode_hex', r.decode_hex, c.decodedHex, `hashids_decode_hex(${lit(c.id)}, ${settings})`);
    }
    check(c, 'hashids_decode', r.decode, decodeText(c.decoded), `hashids_decode(${lit(c.id)}, ${settings})`);
    check(c, 'hashids_decode_one', r.decode_one, decodeOneText(c.decoded), `hashids_decode_one(${lit(c.id)}, ${settings})`);
    if (c.tampered != null) {
        tamperedCount++;
        if (!c.tamperedDecoded.error && c.tamperedDecoded.length > 0) tamperedAccepted++;
        const t = lit(c.tampered);
        check(c, 'hashids_decode (tampered id)', r.tampered_decode, decodeText(c.tamperedDecoded), `hashids_decode(${t}, ${settings})`);
        check(c, 'hashids_decode_one (tampered id)', r.tampered_decode_one, decodeOneText(c.tamperedDecoded), `hashids_decode_one(${t}, ${settings})`);
        if (c.kind === 'hex') {
            // hashids.js accepts ids holding numbers of any size (BigInt); idcodec is 64-bit and, as hashids_decode
            // gives '{}' for a number above 2^63-1, hashids_decode_hex may give NULL there (counted, not a mismatch).
            const beyond = !c.tamperedDecoded.error && c.tamperedDecoded.some((v) => v > INT64_MAX);
            const r2 = r.tampered_decode_hex;
            if (beyond && r2 && !('e' in r2) && r2.v === null && c.tamperedDecodedHex !== null) {
                compared.count('hashids_decode_hex (tampered id)');
                beyondBigint.push(`case ${c.i}: hashids_decode_hex(${t}, ${settings}) is NULL, hashids.js decodeHex gives `
                    + `${show(c.tamperedDecodedHex)} (numbers ${c.tamperedDecoded.join(',')})`);
            } else {
                check(c, 'hashids_decode_hex (tampered id)', r2, c.tamperedDecodedHex, `hashids_decode_hex(${t}, ${settings})`);
            }
        }
    }
}

report(compared, cases, `hashids.js ${pkgVersion}`, (c) => ({
    title: `${c.alphabetKind} alphabet`,
    lines: [
        `salt=${JSON.stringify(c.salt)} min_length=${c.minLength}`,
        `alphabet=${JSON.stringify(c.alphabet)}`,
        `${c.kind === 'numbers' ? `numbers=[${c.numbers.join(',')}]` : `hex=${JSON.stringify(c.hex)}`}`
            + ` js_id=${JSON.stringify(c.id)}${c.tampered != null ? ` tampered_id=${JSON.stringify(c.tampered)}` : ''}`,
    ],
}));
for (const note of jsNotes.slice(0, 5)) tapDiag(`note (hashids.js itself): ${note}`);
if (beyondBigint.length > 0) {
    tapDiag(`note: ${beyondBigint.length} tampered hex id(s) hold a number above 2^63-1 for hashids.js;`
        + ` SQL gives NULL (accepted, as hashids_decode gives '{}'), e.g.`);
    tapDiag(`  ${beyondBigint[0]}`);
}
tapDiag(`hashids.js ${pkgVersion}: ${NUMBER_CASES} number lists + ${HEX_CASES} hex strings, ${tamperedCount} tampered ids`
    + ` (${tamperedAccepted} still valid, ${beyondBigint.length} beyond bigint), ${compared.checks} checks; js ${jsMillis} ms, sql ${sqlMillis} ms;`
    + ` rerun with IDCODEC_INTEROP_SEED=${seed}`);
tapDone();
