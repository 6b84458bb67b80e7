'use strict';
// Interop test: idcodec's ff1_* and idcrypt_* SQL functions against the FF1 of the real @noble/ciphers 2.4.0 from
// npm (test/integration/ff1_interop.sh installs it in test/interop/node_modules).
//
// Generates random cases (seed from IDCODEC_INTEROP_SEED, else random; printed), computes the reference results
// with @noble/ciphers' FF1, loads all cases into PostgreSQL in one psql session (PGHOST/PGPORT/PGUSER/PGDATABASE from
// the environment), computes the SQL results in one query and compares:
//   - ff1_encrypt of text written with an alphabet of the radix against FF1.encrypt of its numerals (a character's
//     numeral is its position in the alphabet), ff1_decrypt of that back to the text, and ff1_decrypt of other text
//     against FF1.decrypt; keys of 16, 24 and 32 bytes, tweaks of 0 to 4096 bytes;
//   - idcrypt_encode against FF1.encrypt of the number's numerals in radix |alphabet|, most significant first,
//     zero-padded on the left to the length (the default length or a given one), tweak = the tweak's UTF-8 bytes;
//     idcrypt_decode of that code back to the number, and of tampered codes against FF1.decrypt (NULL where that
//     gives a value above 2^63 - 1).
// Prints TAP (common.js): a test per SQL function and kind of input, passed when every case agrees with
// @noble/ciphers; exit status 0 when all passed, else 1 (also when the test could not run: @noble/ciphers missing or
// of another version, psql failed).
//
// Environment: IDCODEC_INTEROP_SEED (uint32), IDCODEC_INTEROP_CASES (FF1 text cases, default 3000; as many
// encrypted-ID cases come on top), IDCODEC_INTEROP_SHOW (mismatches printed in full, default 5), PSQL (psql binary).

const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const {
    interopSeed, CASES, seededRandom, range, ASCII, UNICODE_POOLS, UNICODE_ALL, NON_BMP,
    sqlWrapper, runSql, lit, comparison, report, tapDiag, tapDone, fatal,
} = require('./common');

const EXPECTED_VERSION = '2.4.0';
const INT64_MAX = (1n << 63n) - 1n;
const DEFAULT_ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// ---------------------------------------------------------------- the reference (test/interop/node_modules)
// @noble/ciphers is an ES module: it is loaded by path, and its version read from its package.json.
const MODULES = path.join(__dirname, 'node_modules');
const pkgDir = path.join(MODULES, '@noble', 'ciphers');
let pkgVersion;
try {
    pkgVersion = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
} catch (e) {
    pkgVersion = `nothing (${e.message})`;
}
if (pkgVersion !== EXPECTED_VERSION) fatal(`@noble/ciphers ${EXPECTED_VERSION} is in ${MODULES}`, `found ${pkgVersion}`);

// ---------------------------------------------------------------- seed and random choices (common.js)
const seed = interopSeed('ff1');
const TEXT_CASES = CASES;
const ID_CASES = CASES;

const { u32, int, pick, chance, weighted, shuffled, randomString, uniqueFrom, bits, bigint63 } = seededRandom(seed);
const randomBytes = (n) => Uint8Array.from({ length: n }, () => u32() & 0xff);
const hex = (b) => Buffer.from(b).toString('hex');
const utf8 = (s) => new Uint8Array(Buffer.from(s, 'utf8'));

// ---------------------------------------------------------------- alphabets
// The canonical alphabet of a radix: 0-9a-z, then code points from U+0100 up (no surrogates), so any radix up to
// 65536 has one.
const CANON = Array.from('0123456789abcdefghijklmnopqrstuvwxyz');
for (let cp = 0x100; CANON.length < 65536; cp++) if (cp < 0xd800 || cp > 0xdfff) CANON.push(String.fromCodePoint(cp));
const canonical = (radix) => CANON.slice(0, radix);
// The same alphabet as an SQL expression, so a repro line stays short for a large radix.
function canonicalSql(radix) {
    if (radix <= 36) return lit(CANON.slice(0, radix).join(''));
    const last = CANON[radix - 1].codePointAt(0);
    return `'0123456789abcdefghijklmnopqrstuvwxyz' || (SELECT string_agg(chr(c), '' ORDER BY c) FROM generate_series(256, ${last}) c`
        + ' WHERE c NOT BETWEEN 55296 AND 57343)';
}

const STANDARD = {
    decimal: '0123456789',
    binary: '01',
    octal: '01234567',
    hex: '0123456789abcdef',
    HEX: '0123456789ABCDEF',
    base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
    crockford32: '0123456789abcdefghjkmnpqrstvwxyz',
    base36: '0123456789abcdefghijklmnopqrstuvwxyz',
    base58: '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
    base62: DEFAULT_ID_ALPHABET,
    base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
    base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
    ascii94: ASCII.filter((c) => c !== ' ').join(''),
    ascii95: ASCII.join(''), // with space, quotes and backslash
    cyrillic: range(0x430, 0x44f).join(''),
};


function genRadix() {
    return weighted([
        [30, () => pick([2, 3, 4, 7, 8, 10, 10, 10, 16, 16, 26, 32, 36, 36, 58, 62, 62, 64, 64, 85, 94, 100, 255,
            256, 257, 1000, 1024, 4095, 4096])],
        [25, () => int(2, 100)],
        [20, () => int(101, 1000)],
        [20, () => int(1001, 4096)],
        [1, () => pick([65535, int(4097, 65535)])], // noble's FF1 takes radixes up to 65535
    ]);
}

// {kind, chars} of FF1 text cases and of encrypted IDs with an alphabet of their own.
function genAlphabet() {
    return weighted([
        [12, () => { const k = pick(Object.keys(STANDARD)); return { kind: k, chars: Array.from(STANDARD[k]) }; }],
        [53, () => ({ kind: 'canonical', chars: canonical(genRadix()) })],
        [13, () => ({ kind: 'shuffled', chars: shuffled(canonical(Math.min(genRadix(), 4096))) })], // repro stays short
        [12, () => ({ kind: 'unicode', chars: uniqueFrom(UNICODE_ALL.concat(ASCII), weighted([
            [60, () => int(2, 64)], [40, () => int(65, 1500)]])) })],
        [5, () => ({ kind: 'non-BMP', chars: uniqueFrom(NON_BMP, int(2, NON_BMP.length)) })],
        [5, () => { // a contiguous block starting anywhere below U+30000 (away from the surrogates)
            const radix = int(2, 3000);
            const start = pick([int(0x100, 0xd800 - radix), int(0xe000, 0xfffd - radix), int(0x10000, 0x30000)]);
            return { kind: 'block', chars: range(start, start + radix - 1) };
        }],
    ]);
}

// ---------------------------------------------------------------- domains
const pow = (radix, n) => BigInt(radix) ** BigInt(n);
// The shortest FF1 length: at least 2 and radix^length >= 1,000,000.
function ff1MinLength(radix) {
    let n = 2;
    while (pow(radix, n) < 1000000n) n++;
    return n;
}
// The default ID length: the shortest with radix^length > 2^63 * 10^6.
function idDefaultLength(radix) {
    let n = 1;
    while (pow(radix, n) <= (1n << 63n) * 1000000n) n++;
    return n;
}
// The longest ID length: radix^(length - floor(length / 2)) < 2^64.
function idMaxLength(radix) {
    let n = 1;
    while (pow(radix, n + 1 - Math.floor((n + 1) / 2)) < (1n << 64n)) n++;
    return n;
}
// The numerals of `value` in `radix`, most significant first, zero-padded on the left to `length`.
function numeralsOf(value, radix, length) {
    const out = new Array(length).fill(0);
    let v = value;
    for (let i = length - 1; i >= 0; i--) { out[i] = Number(v % BigInt(radix)); v /= BigInt(radix); }
    if (v !== 0n) throw new Error(`generator bug: ${value} does not fit ${length} numerals of radix ${radix}`);
    return out;
}
const valueOf = (numerals, radix) => numerals.reduce((v, d) => v * BigInt(radix) + BigInt(d), 0n);
const digitsNeeded = (value, radix) => { let n = 1; while (pow(radix, n) <= value) n++; return n; };

// ---------------------------------------------------------------- generators
function genKey() { return randomBytes(pick([16, 24, 32])); }

function genTweakText() {
    return weighted([
        [25, () => ''],
        [20, () => pick(['customer', 'invoice', 'order', 'user:42', 't1', 'ключ', '注文番号', '\u{1F511}', 'e\u0301',
            'Größe', ' ', 'a b', "it's", 'back\\slash', 'tab\there'])],
        [25, () => randomString(ASCII, int(1, 30))],
        [17, () => randomString(UNICODE_ALL.concat(ASCII), int(1, 20))],
        [8, () => randomString(NON_BMP, int(1, 8))],
        [5, () => randomString(ASCII.concat(UNICODE_ALL), int(100, 1000))], // at most 4000 UTF-8 bytes
    ]);
}

function genTweakBytes() {
    return weighted([
        [25, () => new Uint8Array(0)],
        [35, () => randomBytes(int(1, 40))], // FF1 pads the tweak to a 16-byte boundary: every remainder
        [15, () => randomBytes(int(41, 300))],
        [20, () => utf8(genTweakText())],
        [3, () => randomBytes(int(301, 4095))],
        [2, () => randomBytes(4096)], // the longest tweak idcodec takes
    ]);
}

function genTextLength(radix) {
    const lo = ff1MinLength(radix);
    return weighted([
        [20, () => lo],
        [10, () => lo + 1],
        [15, () => int(lo, lo + 8)],
        [50, () => int(lo, Math.max(lo, 60))],
        [4, () => int(61, 1024)],
        [1, () => 1024], // the longest text idcodec takes
    ]);
}

// A number below `limit` (a BigInt), of a random bit length, so that short ones come too.
function numberBelow(limit) {
    const b = int(0, limit.toString(2).length);
    return bits(b) % limit;
}

// A code of the alphabet changed: one character replaced by another of the alphabet, two swapped, or an entirely
// random code of the same length (FF1.decrypt says what each decodes to).
function tamper(code, chars) {
    const cps = Array.from(code);
    for (let attempt = 0; attempt < 20; attempt++) {
        const t = [...cps];
        const p = int(0, t.length - 1);
        weighted([
            [55, () => { t[p] = pick(chars); }],
            [15, () => { const q = int(0, t.length - 1); [t[p], t[q]] = [t[q], t[p]]; }],
            [30, () => { for (let j = 0; j < t.length; j++) t[j] = pick(chars); }],
        ]);
        const s = t.join('');
        if (s !== code) return s;
    }
    return null;
}

async function main() {
    const { FF1 } = await import(pathToFileURL(path.join(pkgDir, 'ff1.js')).href);
    if (typeof FF1 !== 'function') fatal('@noble/ciphers/ff1.js exports FF1');

    // ------------------------------------------------------------ reference results (@noble/ciphers)
    const t0 = Date.now();
    const cases = [];
    const jsNotes = []; // noble not round-tripping its own output (information, not an idcodec mismatch)
    const stats = { tweaked: 0, radixMin: Infinity, radixMax: 0, lengthMin: Infinity, lengthMax: 0, defaultLength: 0,
        ownAlphabet: 0, tampered: 0, tamperedValid: 0 };
    const indexOf = (chars) => new Map(chars.map((ch, k) => [ch, k]));

    for (let n = 0; n < TEXT_CASES; n++) {
        const { kind, chars } = genAlphabet();
        const radix = chars.length;
        const length = genTextLength(radix);
        const key = genKey();
        const tweak = genTweakBytes();
        const ff1 = FF1(radix, key, tweak);
        const pt = weighted([
            [90, () => Array.from({ length }, () => int(0, radix - 1))],
            [5, () => new Array(length).fill(0)],
            [5, () => new Array(length).fill(radix - 1)],
        ]);
        const ct = ff1.encrypt(pt);
        if (ff1.decrypt(ct).join(',') !== pt.join(','))
            jsNotes.push(`case ${cases.length}: noble decrypt(encrypt(x)) is not x (radix ${radix}, length ${length})`);
        const c = { i: cases.length, type: 'ff1', kind, alphabet: chars.join(''), radix, length, key, tweak,
            // the shorter form (tweak left to its default) for half of the empty tweaks
            form: tweak.length === 0 && chance(0.5) ? 1 : 0,
            pt: pt.map((d) => chars[d]).join(''), ct: ct.map((d) => chars[d]).join('') };
        if (chance(0.3)) { // decrypt of text nobody encrypted, against noble's decrypt
            const other = Array.from({ length }, () => int(0, radix - 1));
            c.other = other.map((d) => chars[d]).join('');
            c.otherPlain = ff1.decrypt(other).map((d) => chars[d]).join('');
        }
        if (tweak.length > 0) stats.tweaked++;
        stats.radixMin = Math.min(stats.radixMin, radix);
        stats.radixMax = Math.max(stats.radixMax, radix);
        stats.lengthMin = Math.min(stats.lengthMin, length);
        stats.lengthMax = Math.max(stats.lengthMax, length);
        cases.push(c);
    }

    for (let n = 0; n < ID_CASES; n++) {
        const alphabetMode = weighted([[40, () => 'default'], [8, () => 'default-given'], [52, () => 'own']]);
        const { kind, chars } = alphabetMode === 'own' ? genAlphabet()
            : { kind: alphabetMode, chars: Array.from(DEFAULT_ID_ALPHABET) };
        const radix = chars.length;
        const lo = ff1MinLength(radix);
        const def = idDefaultLength(radix);
        const max = idMaxLength(radix);
        const key = genKey();
        const tweak = genTweakText();
        let number;
        let length = null; // null: the default length
        weighted([
            [45, () => { number = bigint63(); }],
            [8, () => { number = bigint63(); length = def; }],
            [7, () => { number = bigint63(); length = max; }],
            [22, () => { number = bigint63(); length = int(Math.max(lo, digitsNeeded(number, radix)), max); }],
            [18, () => { // the length first, then a number that fits: short codes, many of them valid
                length = weighted([[50, () => lo], [50, () => int(lo, max)]]);
                const limit = pow(radix, length) < INT64_MAX + 1n ? pow(radix, length) : INT64_MAX + 1n;
                number = numberBelow(limit);
            }],
        ]);
        const effective = length === null ? def : length;
        const ff1 = FF1(radix, key, utf8(tweak));
        const code = ff1.encrypt(numeralsOf(number, radix, effective)).map((d) => chars[d]).join('');
        const index = indexOf(chars);
        const decodeJs = (s) => { // idcrypt_decode's answer as FF1.decrypt gives it
            const v = valueOf(ff1.decrypt(Array.from(s, (ch) => index.get(ch))), radix);
            return v > INT64_MAX ? null : v.toString();
        };
        if (decodeJs(code) !== number.toString())
            jsNotes.push(`case ${cases.length}: noble decrypt(encrypt(${number})) differs (radix ${radix}, length ${effective})`);
        // Forms of the call: 0 all five arguments, 4 named arguments, 1 to 3 leaving the trailing defaults out.
        const forms = [0, 4];
        if (alphabetMode === 'default') {
            forms.push(1, 1);
            if (length === null) forms.push(2, 2);
            if (length === null && tweak === '') forms.push(3, 3);
        }
        const c = { i: cases.length, type: 'idcrypt', kind, alphabet: chars.join(''), radix, key, tweak, length,
            effective, number: number.toString(), code, form: pick(forms), tampered: [], tamperedExpected: [] };
        const k = weighted([[40, () => 0], [35, () => 1], [25, () => 3]]);
        for (let j = 0; j < k; j++) {
            const t = tamper(code, chars);
            if (t === null || c.tampered.includes(t)) continue;
            c.tampered.push(t);
            c.tamperedExpected.push(decodeJs(t));
            stats.tampered++;
            if (c.tamperedExpected[c.tamperedExpected.length - 1] !== null) stats.tamperedValid++;
        }
        if (length === null) stats.defaultLength++;
        if (alphabetMode === 'own') stats.ownAlphabet++;
        cases.push(c);
    }
    const jsMillis = Date.now() - t0;

    // ------------------------------------------------------------ SQL results (one psql session, one query)
    // Each call is wrapped so an SQL error becomes a reported mismatch instead of aborting the run. Text results
    // travel as the hex of their UTF-8 bytes: psql's printed output drops the noncharacters U+1FFFE, U+1FFFF, ...
    // U+10FFFF, which the alphabets here may hold.
    const asHex = (call) => `encode(convert_to(${call}, 'UTF8'), 'hex')`;
    const { results, sqlMillis } = runSql({
        label: 'ff1',
        seed,
        records: cases.map((c) => (c.type === 'ff1'
            ? { i: c.i, k: 'f', key: hex(c.key), tw: hex(c.tweak), a: c.alphabet, f: c.form, pt: c.pt, ct: c.ct,
                o: c.other ?? null }
            : { i: c.i, k: 'i', key: hex(c.key), t: c.tweak, l: c.length, a: c.alphabet, f: c.form, n: c.number,
                code: c.code, x: c.tampered })),
        functions: [
            sqlWrapper('ff1e', 'x text, k bytea, a text, tw bytea, f int',
                asHex('CASE f WHEN 1 THEN ff1_encrypt(x, k, a) ELSE ff1_encrypt(x, k, a, tw) END')),
            sqlWrapper('ff1d', 'x text, k bytea, a text, tw bytea, f int',
                asHex('CASE f WHEN 1 THEN ff1_decrypt(x, k, a) ELSE ff1_decrypt(x, k, a, tw) END')),
            sqlWrapper('ide', 'n bigint, k bytea, t text, l int, a text, f int', asHex(`CASE f
                WHEN 1 THEN idcrypt_encode(n, k, t, l)
                WHEN 2 THEN idcrypt_encode(n, k, t)
                WHEN 3 THEN idcrypt_encode(n, k)
                WHEN 4 THEN idcrypt_encode(n, k, alphabet => a, length => l, tweak => t)
                ELSE idcrypt_encode(n, k, t, l, a) END`)),
            sqlWrapper('idd', 'x text, k bytea, t text, l int, a text, f int', `(CASE f
                WHEN 1 THEN idcrypt_decode(x, k, t, l)
                WHEN 2 THEN idcrypt_decode(x, k, t)
                WHEN 3 THEN idcrypt_decode(x, k)
                WHEN 4 THEN idcrypt_decode(x, k, alphabet => a, length => l, tweak => t)
                ELSE idcrypt_decode(x, k, t, l, a) END)::text`), // as text: a bigint above 2^53 stays exact
        ],
        query: `SELECT jsonb_build_object(
           'i', i,
           'encrypt', CASE WHEN k = 'f' THEN pg_temp.ff1e(pt, key, a, tw, f) END,
           'decrypt', CASE WHEN k = 'f' THEN pg_temp.ff1d(ct, key, a, tw, f) END,
           'decrypt_other', CASE WHEN k = 'f' AND o IS NOT NULL THEN pg_temp.ff1d(o, key, a, tw, f) END,
           'encode', CASE WHEN k = 'i' THEN pg_temp.ide(n, key, t, l, a, f) END,
           'decode', CASE WHEN k = 'i' THEN pg_temp.idd(code, key, t, l, a, f) END,
           'tampered', CASE WHEN k = 'i' THEN
               (SELECT coalesce(jsonb_agg(pg_temp.idd(e.y, key, t, l, a, f) ORDER BY e.o), '[]')
                FROM jsonb_array_elements_text(x) WITH ORDINALITY AS e(y, o)) END)::text
FROM (SELECT (j->>'i')::int AS i, j->>'k' AS k, decode(j->>'key', 'hex') AS key, decode(j->>'tw', 'hex') AS tw,
             j->>'a' AS a, (j->>'f')::int AS f, j->>'pt' AS pt, j->>'ct' AS ct, j->>'o' AS o,
             j->>'t' AS t, (j->>'l')::int AS l, (j->>'n')::bigint AS n, j->>'code' AS code, j->'x' AS x
      FROM (SELECT line::jsonb AS j FROM interop_cases) raw) c
ORDER BY i;`,
    });
    for (const r of results.values()) {
        for (const field of ['encrypt', 'decrypt', 'decrypt_other', 'encode']) {
            const v = r[field];
            if (v && typeof v.v === 'string') v.v = Buffer.from(v.v, 'hex').toString('utf8');
        }
    }

    // ------------------------------------------------------------ compare
    const compared = comparison(['ff1_encrypt', 'ff1_decrypt', 'ff1_decrypt (other text)', 'idcrypt_encode',
        'idcrypt_decode', 'idcrypt_decode (tampered code)']);
    const { check } = compared;
    const bytea = (b) => `'\\x${hex(b)}'::bytea`;
    const alphabetSql = (c) => (c.kind === 'canonical' ? canonicalSql(c.radix) : lit(c.alphabet));
    // The SQL call of a case's form, with its first argument.
    function ff1Call(fn, c, x) {
        return `${fn}(${lit(x)}, ${bytea(c.key)}, ${alphabetSql(c)}${c.form === 1 ? '' : `, ${bytea(c.tweak)}`})`;
    }
    function idCall(fn, c, x) {
        const l = c.length === null ? 'NULL' : String(c.length);
        const t = lit(c.tweak);
        const rest = [
            `, ${t}, ${l}, ${alphabetSql(c)}`, `, ${t}, ${l}`, `, ${t}`, '',
            `, alphabet => ${alphabetSql(c)}, length => ${l}, tweak => ${t}`,
        ][c.form];
        return `${fn}(${x}, ${bytea(c.key)}${rest})`;
    }
    for (const c of cases) {
        const r = results.get(c.i);
        if (!r) { compared.missingRow(c); continue; }
        if (c.type === 'ff1') {
            check(c, 'ff1_encrypt', r.encrypt, c.ct, ff1Call('ff1_encrypt', c, c.pt));
            check(c, 'ff1_decrypt', r.decrypt, c.pt, ff1Call('ff1_decrypt', c, c.ct));
            if (c.other !== undefined)
                check(c, 'ff1_decrypt (other text)', r.decrypt_other, c.otherPlain, ff1Call('ff1_decrypt', c, c.other));
        } else {
            check(c, 'idcrypt_encode', r.encode, c.code, idCall('idcrypt_encode', c, `${c.number}::bigint`));
            check(c, 'idcrypt_decode', r.decode, c.number, idCall('idcrypt_decode', c, lit(c.code)));
            c.tampered.forEach((t, k) => check(c, 'idcrypt_decode (tampered code)', (r.tampered || [])[k],
                c.tamperedExpected[k], idCall('idcrypt_decode', c, lit(t))));
        }
    }

    const clip = (s, n) => (s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s);
    report(compared, cases, `@noble/ciphers ${pkgVersion}`, (c) => ({
        title: c.type === 'ff1' ? `ff1 text, ${c.kind} alphabet` : `encrypted ID, ${c.kind} alphabet`,
        lines: c.type === 'ff1' ? [
            `radix=${c.radix} length=${c.length} key=${hex(c.key)} (${c.key.length} bytes) tweak=${clip(hex(c.tweak), 200)}`
                + ` (${c.tweak.length} bytes)`,
            `alphabet=${clip(JSON.stringify(c.alphabet), 300)}`,
            `plaintext=${clip(JSON.stringify(c.pt), 300)} js_ciphertext=${clip(JSON.stringify(c.ct), 300)}`,
        ] : [
            `radix=${c.radix} length=${c.length === null ? `default (${c.effective})` : c.length}`
                + ` key=${hex(c.key)} (${c.key.length} bytes) tweak=${clip(JSON.stringify(c.tweak), 200)}`,
            `alphabet=${clip(JSON.stringify(c.alphabet), 300)}`,
            `number=${c.number} js_code=${JSON.stringify(c.code)}`
                + `${c.tampered.length > 0 ? ` tampered_codes=${JSON.stringify(c.tampered)}` : ''}`,
        ],
    }));
    for (const note of jsNotes.slice(0, 5)) tapDiag(`note (@noble/ciphers itself): ${note}`);
    tapDiag(`@noble/ciphers ${pkgVersion}: ${TEXT_CASES} FF1 texts (radix ${stats.radixMin}..${stats.radixMax},`
        + ` length ${stats.lengthMin}..${stats.lengthMax}, ${stats.tweaked} with a tweak) + ${ID_CASES} encrypted IDs`
        + ` (${stats.defaultLength} at the default length, ${stats.ownAlphabet} with an alphabet of their own),`
        + ` ${stats.tampered} tampered codes (${stats.tamperedValid} decode to a number), ${compared.checks} checks;`
        + ` js ${jsMillis} ms, sql ${sqlMillis} ms; rerun with IDCODEC_INTEROP_SEED=${seed}`);
    tapDone();
}

main().catch((e) => fatal('the FF1 interop test runs to its end', String(e.stack || e)));
