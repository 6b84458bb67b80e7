'use strict';
// Interop test: idcodec's sqids_* SQL functions against the real sqids.js 0.3.0 from npm.
//
// Generates random cases (seed from IDCODEC_INTEROP_SEED, else random; printed), computes the reference results
// with sqids.js, loads all cases into PostgreSQL in one psql session (PGHOST/PGPORT/PGUSER/PGDATABASE from the
// environment), computes the SQL results in one query and compares:
//   - sqids_encode(numbers[]) and sqids_encode(number) against encode(), including the cases where sqids.js throws
//     (an SQL error with the same message and SQLSTATE 22023 is expected there);
//   - sqids_decode(id) of the encoded id against the numbers, and of tampered ids (a character changed, dropped,
//     duplicated, swapped, inserted from outside the alphabet, ...) against decode(), partial results included;
//   - sqids_decode(id, ..., canonical => true): the numbers iff encode(decode(id)) === id, else '{}';
//   - a fixed set of invalid settings, where SQL must raise the sqids.js constructor's message.
// sqids.js computes with doubles: a decode giving a number above Number.MAX_SAFE_INTEGER is imprecise there, so
// such decodes are counted and skipped (numbers below 2^53 always decode exactly).
// Prints TAP (common.js): a test per SQL function and kind of input, passed when every case agrees with sqids.js;
// exit status 0 when all passed, else 1 (also when the test could not run: sqids.js missing, psql failed).
//
// Environment: IDCODEC_INTEROP_SEED (uint32), IDCODEC_INTEROP_CASES (random cases, default 3000; the fixed
// invalid-settings cases come on top), IDCODEC_INTEROP_SHOW (mismatches printed in full, default 5), PSQL (psql).

const {
    packageVersion, interopSeed, CASES, seededRandom, range, ASCII,
    sqlWrapper, runSql, show, lit, comparison, report, tapDiag, tapDone, fatal,
} = require('./common');

const EXPECTED_VERSION = '0.3.0';
const pkgVersion = packageVersion('sqids', 'sqids', EXPECTED_VERSION);
const sqidsModule = require('sqids'); // CommonJS: { default: class Sqids, defaultOptions }
const Sqids = sqidsModule.default;
const DEFAULT_BLOCKLIST = [...sqidsModule.defaultOptions.blocklist];
const DEFAULT_ALPHABET = sqidsModule.defaultOptions.alphabet;
if (typeof Sqids !== 'function' || DEFAULT_BLOCKLIST.length !== 560
    || DEFAULT_ALPHABET !== 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') {
    fatal('the sqids package has the export shape of sqids.js 0.3.0');
}
const MAX_ATTEMPTS = 'Reached max attempts to re-generate the ID';

// ---------------------------------------------------------------- seed and random choices (common.js)
const seed = interopSeed('sqids');

const { u32, int, pick, chance, weighted, shuffled, randomString, uniqueFrom } = seededRandom(seed);
function bits(n) { // uniform integer in [0, 2^n) as a Number, n <= 53
    const v = (BigInt(u32()) << 32n) | BigInt(u32());
    return Number(v & ((1n << BigInt(n)) - 1n));
}

// ---------------------------------------------------------------- character pools
const LOWER = range(0x61, 0x7a);
const UPPER = range(0x41, 0x5a);
const DIGITS = range(0x30, 0x39);
// Non-ASCII characters for blocklist words and tampered ids. U+212A KELVIN SIGN lowercases to ASCII 'k' in
// JavaScript; U+0130 lowercases to 'i' + U+0307 (two UTF-16 units); the others stay non-ASCII.
const NON_ASCII = ['\u00e9', '\u00c9', '\u00df', '\u212a', '\u0130', '\u017f', '\u03a3', '\u0436', '\u65e5',
    '\u{1F600}', '\u{1D400}', '\u00a0', '\u0301'];

function randomCase(s) {
    return weighted([
        [50, () => s],
        [20, () => s.toUpperCase()],
        [15, () => s.toLowerCase()],
        [15, () => Array.from(s, (c) => (chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join('')],
    ]);
}

// ---------------------------------------------------------------- generators
function genAlphabet() {
    const [kind, chars] = weighted([
        [22, () => ['default', Array.from(DEFAULT_ALPHABET)]],
        [5, () => ['default-shuffled', shuffled(DEFAULT_ALPHABET)]],
        [22, () => ['ascii', uniqueFrom(ASCII, int(3, 95))]],
        [10, () => ['ascii-small', uniqueFrom(ASCII, int(3, 12))]],
        [4, () => ['ascii-95', shuffled(ASCII)]],
        [6, () => ['letters', uniqueFrom(LOWER.concat(UPPER), int(3, 52))]],
        [5, () => ['lowercase', uniqueFrom(LOWER, int(3, 26))]],
        [5, () => ['digits+', uniqueFrom(DIGITS, int(3, 10)).concat(uniqueFrom(LOWER, int(0, 4)))]],
        [10, () => { // the letters of a few default-blocklist words, so that the default blocklist really bites
            const letters = new Set();
            const n = int(1, 4);
            for (let i = 0; i < n; i++) for (const ch of pick(DEFAULT_BLOCKLIST)) letters.add(ch);
            const extra = uniqueFrom(ASCII, int(0, 4));
            const cs = shuffled([...letters].map((ch) => (chance(0.2) ? ch.toUpperCase() : ch)).concat(extra));
            const out = [...new Set(cs)];
            while (out.length < 3) { const ch = pick(LOWER); if (!out.includes(ch)) out.push(ch); }
            return ['blocklist-letters', out];
        }],
    ]);
    return { kind, alphabet: [...new Set(chars)].join('') };
}

function genMinLength() {
    return weighted([
        [40, () => 0],
        [25, () => int(1, 10)],
        [15, () => int(11, 40)],
        [12, () => int(41, 254)],
        [4, () => 255],
        [4, () => int(200, 255)],
    ]);
}

function genNumber() {
    return weighted([
        [25, () => int(0, 100)],
        [6, () => 0],
        [10, () => int(0, 0xffff)],
        [10, () => int(0, 0x7fffffff)],
        [14, () => 2 ** int(0, 52) + pick([0, 0, -1, 1])],
        [8, () => pick([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1, 2 ** 52, 2 ** 32 - 1, 2 ** 32,
            2 ** 31 - 1, 2 ** 31, 61, 62, 63, 94, 95])],
        [27, () => bits(int(1, 53))],
    ]);
}

function genNumbers() {
    const n = weighted([[30, () => 1], [20, () => 2], [14, () => 3], [10, () => 4], [8, () => 5], [7, () => 6],
        [6, () => 7], [5, () => 8]]);
    return Array.from({ length: n }, genNumber).map((v) => Math.min(Math.max(v, 0), Number.MAX_SAFE_INTEGER));
}

function substrings(id, count, minLen, maxLen) { // random substrings of id (code units = code points: ASCII)
    const out = [];
    for (let k = 0; k < count && id.length > 0; k++) {
        const len = Math.min(id.length, int(minLen, maxLen));
        const p = weighted([[50, () => int(0, id.length - len)], [25, () => 0], [25, () => id.length - len]]);
        out.push(id.slice(p, p + len));
    }
    return out;
}

// Blocklist words derived from an id (so that blocking triggers) plus words that must be filtered out or can only
// match in some positions: with digits, upper case, shorter than 3, characters outside the alphabet, non-ASCII.
function wordsFrom(id, alphabet) {
    const words = [];
    const outside = ASCII.filter((c) => !alphabet.includes(c) && !alphabet.toLowerCase().includes(c.toLowerCase()));
    const n = int(1, 6);
    for (let k = 0; k < n; k++) {
        weighted([
            [30, () => words.push(...substrings(id, 1, 3, 7).map(randomCase))],
            [8, () => { if (id.length <= 5) words.push(randomCase(id)); }], // the whole id (exact match rule)
            [10, () => { // prefix / suffix, the only places a word with a digit can match
                const len = Math.min(id.length, int(3, 6));
                words.push(randomCase(chance(0.5) ? id.slice(0, len) : id.slice(id.length - len)));
            }],
            [8, () => { // contains a digit: from the id if it has one, else made up
                const m = /[0-9]/.exec(id);
                if (m) {
                    const lo = Math.max(0, m.index - int(0, 3));
                    words.push(id.slice(lo, Math.min(id.length, lo + int(3, 6))));
                } else {
                    words.push(randomString(Array.from(alphabet), int(2, 5)) + pick(DIGITS));
                }
            }],
            [8, () => words.push(...substrings(id, 1, 1, 2))], // shorter than 3: ignored
            [3, () => words.push('')],
            [7, () => { // one character outside the alphabet: ignored
                const [w] = substrings(id, 1, 3, 6);
                if (w === undefined) return;
                const p = int(0, w.length - 1);
                const c = outside.length > 0 && chance(0.7) ? pick(outside) : pick(NON_ASCII);
                words.push(w.slice(0, p) + c + w.slice(p + 1));
            }],
            [6, () => { // non-ASCII characters, Kelvin sign in place of k/K (JavaScript lowercases it to 'k')
                const [w] = substrings(id, 1, 3, 6);
                if (w === undefined) return;
                if (/[kK]/.test(w) && chance(0.7)) words.push(w.replace(/[kK]/g, '\u212a'));
                else words.push(w + pick(NON_ASCII));
            }],
            [5, () => words.push(randomString(Array.from(alphabet), int(3, 6)))],
            [5, () => words.push(pick(DEFAULT_BLOCKLIST))],
            [2, () => words.push(randomCase(id + randomString(Array.from(alphabet), int(1, 3))))], // longer than id
        ]);
    }
    return words;
}

// All strings of length k over a small alphabet (some dropped, random case): makes encode give up.
function saturatingWords(alphabet, k, dropRate) {
    const chars = Array.from(alphabet);
    let words = [''];
    for (let i = 0; i < k; i++) words = words.flatMap((w) => chars.map((c) => w + c));
    return shuffled(words.filter(() => !chance(dropRate)).map((w) => (chance(0.2) ? randomCase(w) : w)));
}

function makeSqids(alphabet, minLength, blocklist) { // blocklist null = the default list
    const opts = { alphabet, minLength };
    if (blocklist !== null) opts.blocklist = new Set(blocklist);
    return new Sqids(opts);
}
const tryEncode = (s, numbers) => {
    try { return { id: s.encode(numbers) }; } catch (e) { return { error: String(e.message || e) }; }
};

// One character of the id changed, dropped, duplicated, swapped, or characters added from inside or outside the
// alphabet; or an unrelated string.
function tamper(id, alphabet, otherIds) {
    const alpha = Array.from(alphabet);
    const outside = ASCII.filter((c) => !alphabet.includes(c));
    for (let attempt = 0; attempt < 20; attempt++) {
        const t = Array.from(id);
        const p = int(0, t.length - 1);
        weighted([
            [30, () => { t[p] = pick(alpha.filter((c) => c !== t[p])); }],
            [12, () => { if (t.length > 1) t.splice(p, 1); }],
            [12, () => { t.splice(p, 0, t[p]); }],
            [6, () => { if (p + 1 < t.length) [t[p], t[p + 1]] = [t[p + 1], t[p]]; }],
            [6, () => { t.splice(int(1, t.length)); }], // truncated
            [6, () => { t.push(...randomString(alpha, int(1, 12))); }], // appended (often a big number)
            [8, () => { t[p] = outside.length > 0 && chance(0.7) ? pick(outside) : pick(NON_ASCII); }],
            [5, () => { t.splice(p, 0, outside.length > 0 && chance(0.5) ? pick(outside) : pick(NON_ASCII)); }],
            [4, () => { t.splice(0, t.length, ...Array.from(id.toUpperCase())); }],
            [5, () => { t.splice(0, t.length, ...randomString(alpha, int(1, 16))); }],
            [3, () => { t.splice(0, t.length, ...(otherIds.length > 0 ? pick(otherIds) : '')); }],
            [3, () => { t.splice(0, t.length, ...randomString(alpha, int(20, 40))); }],
        ]);
        const s = t.join('');
        if (s !== id) return s;
    }
    return null;
}

// ---------------------------------------------------------------- cases
// Fixed cases with settings sqids.js rejects (or a special input); the message must be the same in SQL.
const FIXED = [
    { alphabet: 'aab', minLength: 0 },
    { alphabet: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789a', minLength: 0 },
    { alphabet: 'abc def ghi', minLength: 0 },
    { alphabet: 'aa', minLength: 0 },
    { alphabet: 'ab', minLength: 0 },
    { alphabet: 'a', minLength: 0 },
    { alphabet: '', minLength: 0 },
    { alphabet: 'abc\u00e9', minLength: 0 },
    { alphabet: 'a\u00e9', minLength: 0 },
    { alphabet: '\u65e5\u672c\u8a9e', minLength: 0 },
    { alphabet: 'ab\u{1F600}', minLength: 0 },
    { alphabet: DEFAULT_ALPHABET, minLength: 256 },
    { alphabet: DEFAULT_ALPHABET, minLength: -1 },
    { alphabet: 'abc', minLength: 1000 },
    { alphabet: 'aab', minLength: 256 }, // which check comes first
    { alphabet: 'abc\u00e9', minLength: 300 },
    { alphabet: 'abc', minLength: 255, numbers: [0] },
    { alphabet: 'abc\t\n ', minLength: 10, numbers: [1, 2, 3] }, // control characters are single bytes
    { alphabet: DEFAULT_ALPHABET, minLength: 0, numbers: [] },
    { alphabet: DEFAULT_ALPHABET, minLength: 0, numbers: [0], tampered: ['', 'a', '\u{1F600}'] },
    { alphabet: 'abc', minLength: 3, numbers: [1], blocklist: saturatingWords('abc', 3, 0) },
    { alphabet: 'abc', minLength: 0, numbers: [100], blocklist: saturatingWords('abc', 4, 0) },
    { alphabet: 'abc', minLength: 0, numbers: [1], blocklist: saturatingWords('abc', 3, 0) }, // a 2-char id
    { alphabet: DEFAULT_ALPHABET, minLength: 0, numbers: [1, 2, 3], blocklist: ['86Rf07'] },
    { alphabet: DEFAULT_ALPHABET, minLength: 0, numbers: [1, 2, 3], blocklist: [] },
    { alphabet: DEFAULT_ALPHABET, minLength: 0, numbers: [Number.MAX_SAFE_INTEGER] },
];

const t0 = Date.now();
const cases = [];
const stats = { blocked: 0, maxAttempts: 0, ctorErrors: 0, imprecise: 0, tampered: 0, tamperedValid: 0 };
const jsNotes = []; // sqids.js not round-tripping its own output (information, not an idcodec mismatch)
const recentIds = [];

// Reference results for one decode: exact numbers (as strings) or null when sqids.js loses precision.
function jsDecode(s, id) {
    const nums = s.decode(id);
    if (nums.some((v) => !Number.isSafeInteger(v))) return null;
    const decode = `{${nums.join(',')}}`;
    let canonical = '{}';
    if (nums.length > 0) {
        const r = tryEncode(s, nums);
        if (r.id === id) canonical = decode;
    }
    return { decode, canonical };
}

function finishCase(c) {
    let s;
    try {
        s = makeSqids(c.alphabet, c.minLength, c.blocklist);
    } catch (e) {
        c.ctorError = String(e.message || e);
        stats.ctorErrors++;
        c.encode = { error: c.ctorError };
        c.tampered = c.tampered.length > 0 ? c.tampered : ['86Rf07']; // decode must raise the same error
        c.expectTampered = c.tampered.map(() => ({ error: c.ctorError }));
        return c;
    }
    c.encode = tryEncode(s, c.numbers);
    if (c.encode.error === MAX_ATTEMPTS) stats.maxAttempts++;
    if (c.encode.id !== undefined && c.encode.id !== '') {
        const back = s.decode(c.encode.id);
        if (back.join(',') !== c.numbers.join(','))
            jsNotes.push(`case ${c.i}: sqids.js decode(${JSON.stringify(c.encode.id)}) gave [${back}]`);
        recentIds.push(c.encode.id);
        if (recentIds.length > 50) recentIds.shift();
        const k = weighted([[25, () => 0], [40, () => 1], [25, () => 2], [10, () => 3]]);
        for (let j = 0; j < k; j++) {
            const t = tamper(c.encode.id, c.alphabet, recentIds);
            if (t !== null && !c.tampered.includes(t)) c.tampered.push(t);
        }
    }
    c.expectTampered = c.tampered.map((t) => {
        const r = jsDecode(s, t);
        stats.tampered++;
        if (r === null) stats.imprecise++;
        else if (r.decode !== '{}') stats.tamperedValid++;
        return r;
    });
    return c;
}

for (const [k, f] of FIXED.entries()) {
    cases.push(finishCase({ i: cases.length, kind: `fixed-${k}`, alphabet: f.alphabet, minLength: f.minLength,
        blocklist: f.blocklist === undefined ? null : f.blocklist, blocklistKind: f.blocklist === undefined ? 'default' : 'fixed',
        numbers: f.numbers || [1, 2, 3], tampered: f.tampered ? [...f.tampered] : [] }));
}

for (let n = 0; n < CASES; n++) {
    const c = { i: cases.length, tampered: [] };
    const scenario = weighted([[93, () => 'random'], [7, () => 'saturating']]);
    c.numbers = genNumbers();
    if (scenario === 'saturating') {
        const a = weighted([
            [60, () => uniqueFrom(LOWER, int(3, 5))],
            [20, () => uniqueFrom(LOWER.concat(UPPER), int(3, 4))],
            [20, () => uniqueFrom(DIGITS.concat(LOWER), int(3, 4))],
        ]);
        c.kind = 'tiny';
        c.alphabet = a.join('');
        const k = a.length <= 4 ? pick([3, 4, 4]) : pick([3, 4]);
        c.minLength = k === 3 ? pick([0, 3, 3, int(0, 6)]) : pick([0, 0, int(0, 10)]);
        if (k === 3 && c.minLength <= 3) c.numbers = [int(0, 5)];
        c.blocklistKind = `all-${k}-strings`;
        c.blocklist = saturatingWords(c.alphabet, k, pick([0, 0, 0.05, 0.3, 0.7]));
    } else {
        const { kind, alphabet } = genAlphabet();
        c.kind = kind;
        c.alphabet = alphabet;
        c.minLength = genMinLength();
        const bk = weighted([[33, () => 'default'], [3, () => 'default-explicit'], [14, () => 'empty'],
            [50, () => 'derived']]);
        c.blocklistKind = bk;
        if (bk === 'default') c.blocklist = null;
        else if (bk === 'default-explicit') c.blocklist = shuffled(DEFAULT_BLOCKLIST);
        else if (bk === 'empty') c.blocklist = [];
        else {
            // Words from the id encoded without a blocklist, then (1 to 4 rounds) from the id the blocklist so far
            // gives, so that re-generation happens, sometimes several times in a row.
            let words = [];
            let id = tryEncode(makeSqids(c.alphabet, c.minLength, []), c.numbers).id;
            const rounds = int(1, 4);
            for (let r = 0; r < rounds && id !== undefined; r++) {
                words = words.concat(wordsFrom(id, c.alphabet));
                if (chance(0.15)) words.push(...DEFAULT_BLOCKLIST.filter(() => chance(0.05)));
                id = tryEncode(makeSqids(c.alphabet, c.minLength, words), c.numbers).id;
            }
            c.blocklist = shuffled(words);
        }
    }
    finishCase(c);
    if (c.encode.id !== undefined && (c.blocklist === null || c.blocklist.length > 0)
        && tryEncode(makeSqids(c.alphabet, c.minLength, []), c.numbers).id !== c.encode.id) stats.blocked++;
    cases.push(c);
}
const jsMillis = Date.now() - t0;

// ---------------------------------------------------------------- SQL results (one psql session, one query)
// Each call is wrapped so an SQL error becomes a value ({"e": ...}) instead of aborting the run.
const wrapper = (name, args, call) => sqlWrapper(name, args, call, "jsonb_build_object('e', SQLERRM, 'state', SQLSTATE)");
const { results, sqlMillis } = runSql({
    label: 'sqids',
    seed,
    records: cases.map((c) => ({
        i: c.i, a: c.alphabet, m: c.minLength, b: c.blocklist, n: c.numbers.map(String),
        id: c.encode.id ?? null, t: c.tampered,
    })),
    functions: [
        wrapper('enc', 'n bigint[], a text, m int, b text[]', 'sqids_encode(n, a, m, b)'),
        wrapper('enc1', 'n bigint, a text, m int, b text[]', 'sqids_encode(n, a, m, b)'),
        wrapper('dec', 'id text, a text, m int, b text[], canon boolean', 'sqids_decode(id, a, m, b, canon)::text'),
    ],
    query: `SELECT jsonb_build_object(
           'i', i,
           'encode', pg_temp.enc(n, a, m, b),
           'encode_single', CASE WHEN cardinality(n) = 1 THEN pg_temp.enc1(n[1], a, m, b) END,
           'decode', CASE WHEN id IS NOT NULL THEN pg_temp.dec(id, a, m, b, false) END,
           'canonical', CASE WHEN id IS NOT NULL THEN pg_temp.dec(id, a, m, b, true) END,
           'tampered', (SELECT coalesce(jsonb_agg(jsonb_build_array(pg_temp.dec(x, a, m, b, false),
                                                                    pg_temp.dec(x, a, m, b, true)) ORDER BY o), '[]')
                        FROM jsonb_array_elements_text(t) WITH ORDINALITY AS e(x, o)))::text
FROM (SELECT (j->>'i')::int AS i, j->>'a' AS a, (j->>'m')::int AS m, j->>'id' AS id, j->'t' AS t,
             CASE WHEN jsonb_typeof(j->'b') = 'array'
                  THEN ARRAY(SELECT x FROM jsonb_array_elements_text(j->'b') WITH ORDINALITY AS e(x, o) ORDER BY o)
             END AS b,
             ARRAY(SELECT x::bigint FROM jsonb_array_elements_text(j->'n') WITH ORDINALITY AS e(x, o) ORDER BY o) AS n
      FROM (SELECT line::jsonb AS j FROM interop_cases) raw) c
ORDER BY i;`,
});

// ---------------------------------------------------------------- compare
const compared = comparison(['sqids_encode(numbers[])', 'sqids_encode(number)', 'sqids_decode',
    'sqids_decode(canonical)', 'sqids_decode (tampered id)', 'sqids_decode(canonical) (tampered id)']);
const { mismatches } = compared;
const showSql = (r) => (!r ? '(no result)' : 'e' in r ? `ERROR ${r.state}: ${r.e}` : show(r.v));
// expected: {value} or {error}
function check(c, what, sqlResult, expected, sqlCall) {
    compared.count(what);
    if (sqlResult) {
        if ('error' in expected) {
            if ('e' in sqlResult && sqlResult.e === expected.error && sqlResult.state === '22023') return;
        } else if (!('e' in sqlResult) && sqlResult.v === expected.value) {
            return;
        }
    }
    const js = 'error' in expected ? `throws ${JSON.stringify(expected.error)}` : show(expected.value);
    mismatches.push({ c, what, js, sql: showSql(sqlResult), sqlCall });
}
const blocklistLit = (b) => (b === null ? 'NULL' : b.length === 0 ? "'{}'::text[]" : `ARRAY[${b.map(lit).join(', ')}]::text[]`);
for (const c of cases) {
    const r = results.get(c.i);
    if (!r) { compared.missingRow(c); continue; }
    const settings = `${lit(c.alphabet)}, ${c.minLength}, ${blocklistLit(c.blocklist)}`;
    const expectEncode = c.encode.error !== undefined ? { error: c.encode.error } : { value: c.encode.id };
    check(c, 'sqids_encode(numbers[])', r.encode, expectEncode, `sqids_encode('{${c.numbers.join(',')}}'::bigint[], ${settings})`);
    if (c.numbers.length === 1)
        check(c, 'sqids_encode(number)', r.encode_single, expectEncode, `sqids_encode(${c.numbers[0]}::bigint, ${settings})`);
    if (c.encode.id !== undefined) {
        const nums = { value: `{${c.numbers.join(',')}}` };
        check(c, 'sqids_decode', r.decode, nums, `sqids_decode(${lit(c.encode.id)}, ${settings})`);
        check(c, 'sqids_decode(canonical)', r.canonical, c.encode.id === '' ? { value: '{}' } : nums,
            `sqids_decode(${lit(c.encode.id)}, ${settings}, true)`);
    }
    c.tampered.forEach((t, k) => {
        const exp = c.expectTampered[k];
        const got = (r.tampered || [])[k] || [];
        if (exp === null) return; // sqids.js decodes a number above 2^53: imprecise there, skipped (counted)
        const call = `sqids_decode(${lit(t)}, ${settings}`;
        if (exp.error !== undefined) {
            check(c, 'sqids_decode (tampered id)', got[0], exp, `${call})`);
            check(c, 'sqids_decode(canonical) (tampered id)', got[1], exp, `${call}, true)`);
        } else {
            check(c, 'sqids_decode (tampered id)', got[0], { value: exp.decode }, `${call})`);
            check(c, 'sqids_decode(canonical) (tampered id)', got[1], { value: exp.canonical }, `${call}, true)`);
        }
    });
}

const clip = (s, n) => (s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s);
report(compared, cases, `sqids.js ${pkgVersion}`, (c) => ({
    title: `${c.kind} alphabet, ${c.blocklistKind} blocklist`,
    lines: [
        `alphabet=${JSON.stringify(c.alphabet)} min_length=${c.minLength}`,
        `blocklist=${c.blocklist === null ? 'NULL (default)' : JSON.stringify(c.blocklist)}`,
        `numbers=[${c.numbers.join(',')}] js_id=${c.encode.id !== undefined ? JSON.stringify(c.encode.id) : `(throws ${JSON.stringify(c.encode.error)})`}`
            + `${c.tampered.length > 0 ? ` tampered_ids=${JSON.stringify(c.tampered)}` : ''}`,
    ],
}));
for (const note of jsNotes.slice(0, 5)) tapDiag(`note (sqids.js itself): ${clip(note, 300)}`);
tapDiag(`sqids.js ${pkgVersion}: ${CASES} random + ${FIXED.length} fixed cases (${stats.blocked} ids changed by a blocklist,`
    + ` ${stats.maxAttempts} '${MAX_ATTEMPTS}', ${stats.ctorErrors} invalid settings), ${stats.tampered} tampered ids`
    + ` (${stats.tamperedValid} decode to numbers, ${stats.imprecise} skipped: sqids.js decodes a number above 2^53),`
    + ` ${compared.checks} checks; js ${jsMillis} ms, sql ${sqlMillis} ms; rerun with IDCODEC_INTEROP_SEED=${seed}`);
tapDone();
