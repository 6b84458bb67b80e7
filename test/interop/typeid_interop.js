'use strict';
// Interop test: idcodec's TypeID and ULID SQL functions against the real typeid-js 1.2.0 and ulid 3.0.2 from npm
// (test/integration/typeid_interop.sh installs them in test/interop/node_modules).
//
// Generates random cases (seed from IDCODEC_INTEROP_SEED, else random; printed), computes the reference results
// with typeid-js and ulid, loads all cases into PostgreSQL in one psql session (PGHOST/PGPORT/PGUSER/PGDATABASE from
// the environment), computes the SQL results in one query and compares:
//   - typeid_encode(prefix, uuid) against TypeID.fromUUID(prefix, uuid), for UUIDs of all 128 bits random, version 7
//     ones of a random time, version 4 ones, nil, max and other edges, and prefixes of 0 to 63 characters; where
//     typeid-js refuses the prefix, SQL must raise 22023;
//   - typeid_decode and typeid_prefix of that TypeID and of mutated ones (a character changed, inserted or deleted,
//     upper case, another separator, another prefix, ...) against TypeID.fromString: its UUID and prefix where
//     typeid-js takes the text, NULL where it throws;
//   - ulid_encode(uuid) against uuidToULID; ulid_decode, ulid_timestamp and ulid_encode(ulid_decode(...)) of that
//     ULID, of mutated ones and of ULIDs made by ulid(seedTime) and monotonicFactory() against ulidToUUID,
//     decodeTime and uuidToULID (a generated ULID must come back unchanged);
//   - IDs made in SQL (uuid_generate_v7, typeid_generate, ulid_generate, five at a time): typeid-js and ulid take
//     them, they are version 7 UUIDs of a time within a few seconds of the run, strictly increasing.
// Where the SQL functions are documented to differ from the libraries, the documented SQL rule is checked instead
// (see jsEncode, jsTypeId and ulidExpected).
// Prints TAP (common.js): a test per SQL function and kind of input, passed when every case agrees with typeid-js and
// ulid (or the documented SQL rule); exit status 0 when all passed, else 1 (also when the test could not run:
// typeid-js or ulid missing or of another version, psql failed).
//
// Environment: IDCODEC_INTEROP_SEED (uint32), IDCODEC_INTEROP_CASES (UUID cases, default 3000; a sixth as many
// cases of ULIDs made by ulid, a thirtieth as many batches of IDs made in SQL and one case of fixed edge strings
// come on top), IDCODEC_INTEROP_SHOW (mismatches printed in full, default 5), PSQL (psql binary).

const {
    packageVersion, interopSeed, CASES, seededRandom, range, ASCII, UNICODE_ALL, NON_BMP,
    sqlWrapper, runSql, show, lit, comparison, report, tapDiag, tapDone, fatal,
} = require('./common');

const TYPEID_VERSION = '1.2.0';
const ULID_VERSION = '3.0.2';
const typeidVersion = packageVersion('typeid', 'typeid-js', TYPEID_VERSION);
const ulidVersion = packageVersion('typeid', 'ulid', ULID_VERSION);
// Both packages ship a CommonJS build next to their ES module (typeid-js "main", ulid "exports" node.require).
const { TypeID } = require('typeid-js');
const { ulid, monotonicFactory, decodeTime, ulidToUUID, uuidToULID, fixULIDBase32, TIME_MAX } = require('ulid');
if (typeof TypeID?.fromUUID !== 'function' || typeof TypeID.fromString !== 'function' || typeof ulid !== 'function'
    || typeof monotonicFactory !== 'function' || typeof ulidToUUID !== 'function' || typeof uuidToULID !== 'function'
    || typeof fixULIDBase32 !== 'function' || TIME_MAX !== 2 ** 48 - 1) {
    fatal(`typeid-js ${TYPEID_VERSION} and ulid ${ULID_VERSION} have the export shape this test uses`);
}

// ---------------------------------------------------------------- seed and random choices (common.js)
const seed = interopSeed('typeid');
const UUID_CASES = CASES;
const ULID_CASES = Math.max(1, Math.round(CASES / 6));
const BATCHES = Math.max(1, Math.round(CASES / 30));
const BATCH = 5; // IDs of each kind made in SQL per batch
const CLOCK_SLACK_MS = 5000; // how far an ID made in SQL may lie outside the run's time

const { rnd, int, pick, chance, weighted, randomString, bits } = seededRandom(seed);

// ---------------------------------------------------------------- character pools
const LOWER = range(0x61, 0x7a);
const UPPER = range(0x41, 0x5a);
const DIGITS = range(0x30, 0x39);
const CROCKFORD = Array.from('0123456789abcdefghjkmnpqrstvwxyz');
const CROCKFORD_UPPER = CROCKFORD.map((c) => c.toUpperCase());
const ALIASES = ['i', 'I', 'l', 'L', 'o', 'O'];
// Characters no TypeID or ULID holds: Crockford's excluded u, punctuation, space, non-ASCII (no NUL: text has none).
const FOREIGN = ['u', 'U', '-', '_', '.', ' ', '\t', '\n', '+', '/', '=', '*', "'", '\\', '\u00e9', '\u0131', '\u017f',
    '\u212a', '\uff10', '\uff41', '\u0430', '\u00a0', '\u{1F600}'];
const NOISE = ASCII.concat(FOREIGN, UNICODE_ALL.slice(0, 200), NON_BMP.slice(0, 20));

// ---------------------------------------------------------------- UUIDs (BigInt, 128 bits) and their text
const MAX128 = (1n << 128n) - 1n;
function uuidText(v) {
    const h = v.toString(16).padStart(32, '0');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
const uuidOfBytes = (bytes) => uuidText(BigInt(`0x${Buffer.from(bytes).toString('hex')}`));
const msOfUuid = (u) => parseInt(u.replace(/-/g, '').slice(0, 12), 16);

function msBetween(lo, hi) { return lo + Number(bits(53) % BigInt(hi - lo + 1)); }
// A millisecond time of 48 bits: mostly this century's, also anywhere and the edges.
function genMs() {
    return weighted([
        [40, () => msBetween(946684800000, 4102444800000)], // 2000 .. 2100
        [25, () => Number(bits(48))],
        [15, () => msBetween(0, 2 ** 41)],
        [10, () => pick([0, 1, TIME_MAX, TIME_MAX - 1, 2 ** 47, 2 ** 47 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 31])],
    ]);
}
const v7 = (ms, a, b) => (BigInt(ms) << 80n) | (7n << 76n) | (a << 64n) | (2n << 62n) | b;

function genUuid() {
    return weighted([
        [35, () => ['random', bits(128)]],
        [25, () => ['v7', v7(genMs(), bits(12), bits(62))]],
        [8, () => ['v4', (bits(128) & ~(0xfn << 76n) & ~(3n << 62n)) | (4n << 76n) | (2n << 62n)]],
        [10, () => ['edge', pick([0n, 1n, MAX128, MAX128 - 1n, 1n << 127n, (1n << 127n) - 1n, 1n << 64n,
            (1n << 64n) - 1n, MAX128 ^ ((1n << 80n) - 1n), (1n << 80n) - 1n, MAX128 >> 3n, 1n << 125n])]],
        [8, () => ['near-max', MAX128 - bits(int(1, 40))]],
        [5, () => ['near-nil', bits(int(1, 40))]],
        [5, () => ['one-bit', 1n << BigInt(int(0, 127))]],
        [4, () => ['bytes', BigInt(`0x${Array.from({ length: 16 }, () => pick(['00', 'ff', 'ff', '7f', '80',
            bits(8).toString(16).padStart(2, '0')])).join('')}`)]],
    ]);
}

// ---------------------------------------------------------------- prefixes
function validPrefix(length) {
    if (length === 0) return '';
    if (length === 1) return pick(LOWER);
    const underscores = pick([0, 0.1, 0.3, 0.6]);
    return pick(LOWER) + randomString(LOWER, length - 2).replace(/./g, (c) => (chance(underscores) ? '_' : c))
        + pick(LOWER);
}
const putAt = (s, ch) => { const p = int(0, s.length); return s.slice(0, p) + ch + s.slice(p); };
// Prefixes typeid-js is expected to refuse (whether it does decides the expected result, not this list).
function invalidPrefix() {
    return weighted([
        [10, () => validPrefix(int(64, 100))],
        [8, () => (chance(0.5) ? `_${validPrefix(int(1, 20))}` : `${validPrefix(int(1, 20))}_`)],
        [3, () => '_'.repeat(int(1, 3))],
        [8, () => putAt(validPrefix(int(1, 20)), pick(UPPER))],
        [8, () => putAt(validPrefix(int(1, 20)), pick(DIGITS))],
        [6, () => putAt(validPrefix(int(1, 20)), pick(ASCII.filter((c) => !/[a-z_]/.test(c))))],
        [6, () => putAt(validPrefix(int(1, 20)), pick(FOREIGN.concat(UNICODE_ALL.slice(0, 100))))],
        [3, () => validPrefix(int(1, 20)).toUpperCase()],
    ]);
}
function genPrefix() {
    return weighted([
        [12, () => ''],
        [25, () => validPrefix(int(1, 12))],
        [25, () => validPrefix(int(2, 63))],
        [6, () => validPrefix(63)],
        [3, () => validPrefix(62)],
        [4, () => validPrefix(1)],
        [4, () => pick(LOWER) + '_'.repeat(int(1, 61)) + pick(LOWER)],
        [20, invalidPrefix],
    ]);
}

// ---------------------------------------------------------------- mutations
// Positions count code points: a surrogate pair split in two would be no text PostgreSQL takes.
const cps = (s) => Array.from(s);
const cut = (s, from, to) => cps(s).slice(from, to).join('');
const replaceAt = (s, p, ch) => cut(s, 0, p) + ch + cut(s, p + 1);
function swapTwo(s) {
    const a = cps(s);
    const p = int(0, a.length - 1);
    const q = int(0, a.length - 1);
    [a[p], a[q]] = [a[q], a[p]];
    return a.join('');
}
function insertOne(s, pool) { const p = int(0, cps(s).length); return cut(s, 0, p) + pick(pool) + cut(s, p); }
function deleteOne(s) { const p = int(0, Math.max(0, cps(s).length - 1)); return cut(s, 0, p) + cut(s, p + 1); }
const around = (s) => pick([' ', '\t', '\n', '\u00a0']) + s + (chance(0.5) ? ' ' : '');

// A TypeID (or what stands in for one) changed once or twice, different from the original.
function mutateTypeId(t) {
    let s = t;
    for (let n = chance(0.25) ? 2 : 1; n > 0; n--) {
        const sep = cps(s).lastIndexOf('_');
        const start = sep + 1; // the suffix's first character
        const inSuffix = () => int(start, Math.max(start, cps(s).length - 1));
        s = weighted([
            [14, () => replaceAt(s, inSuffix(), pick(CROCKFORD))],
            [8, () => replaceAt(s, inSuffix(), pick(FOREIGN.concat(CROCKFORD_UPPER, ALIASES)))],
            [8, () => replaceAt(s, start, pick(CROCKFORD))], // 8 and above overflow 128 bits
            [6, () => insertOne(s, CROCKFORD.concat(['_', '_', 'a']))],
            [6, () => deleteOne(s)],
            [8, () => weighted([
                [1, () => s.toUpperCase()],
                [1, () => cut(s, 0, start) + cut(s, start).toUpperCase()],
                [1, () => cut(s, 0, start).toUpperCase() + cut(s, start)],
            ])],
            [10, () => (sep < 0 ? `${validPrefix(int(1, 8))}${pick(['-', '.', ':', ''])}${s}`
                : cut(s, 0, sep) + pick(['-', '.', ':', ' ', '__', '', '/', '+', '\uff3f', '\u2014']) + cut(s, start))],
            [5, () => pick([`_${s}`, `${s}_`, `${cut(s, 0, start)}_${cut(s, start)}`])],
            [10, () => weighted([ // another prefix: valid ones too (the prefix-less suffix, a new prefix, 63 letters)
                [3, () => cut(s, start)],
                [3, () => `${validPrefix(int(1, 63))}_${cut(s, start)}`],
                [2, () => `${validPrefix(64)}_${cut(s, start)}`],
                [4, () => `${invalidPrefix()}_${cut(s, start)}`],
            ])],
            [4, () => around(s)],
            [4, () => swapTwo(s)],
            [3, () => `${cut(s, 0, start)}${randomString(pick([CROCKFORD, NOISE]), pick([26, 26, int(0, 30)]))}`],
        ]);
    }
    return s === t ? null : s;
}

// A ULID changed once or twice, different from the original (upper case, aliases and overflow included).
function mutateUlid(u) {
    let s = u;
    for (let n = chance(0.25) ? 2 : 1; n > 0; n--) {
        const p = int(0, Math.max(0, cps(s).length - 1));
        s = weighted([
            [12, () => s.toLowerCase()],
            [8, () => Array.from(s, (c) => (chance(0.5) ? c.toLowerCase() : c.toUpperCase())).join('')],
            [14, () => { // aliases anywhere (the value changes)
                let x = s;
                for (let k = int(1, 3); k > 0; k--) x = replaceAt(x, int(0, cps(x).length - 1), pick(ALIASES));
                return x;
            }],
            [6, () => s.replace(/[01]/g, (c) => (chance(0.5) ? c : pick(c === '1' ? ['i', 'I', 'l', 'L'] : ['o', 'O'])))],
            [14, () => replaceAt(s, p, pick(CROCKFORD_UPPER.concat(CROCKFORD)))],
            [8, () => replaceAt(s, p, pick(FOREIGN))],
            [8, () => replaceAt(s, 0, pick(CROCKFORD_UPPER.concat(ALIASES)))], // 8 and above overflow 128 bits
            [6, () => insertOne(s, CROCKFORD_UPPER.concat(ALIASES))],
            [6, () => deleteOne(s)],
            [5, () => (chance(0.5) ? `${cut(s, 0, 10)}-${cut(s, 10)}` : insertOne(s, ['-']))],
            [4, () => around(s)],
            [4, () => swapTwo(s)],
            [3, () => randomString(pick([CROCKFORD_UPPER.concat(ALIASES), NOISE]), pick([26, 26, int(0, 30)]))],
        ]);
    }
    return s === u ? null : s;
}

// ---------------------------------------------------------------- reference results (typeid-js, ulid)
// TypeID.fromUUID, the class's, checks the prefix; the bare fromUUID(uuid, prefix) of typeid-js 1.2.0 does not.
function jsEncode(prefix, uuid) { // {value} or {error}
    try { return { value: TypeID.fromUUID(prefix, uuid).toString() }; } catch (e) { return { error: e.name }; }
}
// typeid-js's toUUID() goes through uuid's stringify(), which throws for 128 bits that are not an RFC 9562 UUID of
// version 1 to 8 (nor nil or max), although such a suffix is a valid TypeID (test/vectors/typeid/spec-valid.json
// holds one): the UUID is taken from toUUIDBytes() and the refusals are counted.
const stats = {
    kinds: {}, prefixRefused: 0, typeIds: 0, typeIdsAccepted: 0, ulids: 0, ulidsAccepted: 0, ulidsAliased: 0,
    generated: 0, toUuidRefused: 0, decodeTimeOnly: 0, overflows: 0,
};
const toUuidRefusedExample = [];
function jsTypeId(s) { // {uuid, prefix} or null
    let t;
    try { t = TypeID.fromString(s); } catch (e) { return null; }
    const uuid = uuidOfBytes(t.toUUIDBytes());
    try { t.toUUID(); } catch (e) {
        stats.toUuidRefused++;
        if (toUuidRefusedExample.length === 0) toUuidRefusedExample.push(`TypeID.fromString(${JSON.stringify(s)}).toUUID()`);
    }
    return { uuid, prefix: t.getType() };
}

// What ulid_decode, ulid_timestamp and ulid_encode(ulid_decode(...)) give for a string: {uuid, ms, ulid} or null.
// ulid_decode also reads Crockford's aliases (i and l as 1, o as 0), as its COMMENT says; ulid's ulidToUUID
// refuses them. ulid's own fixULIDBase32 maps them (and also drops hyphens, which ulid_decode does not), so a string
// with an alias and no hyphen is expected to read as ulidToUUID(fixULIDBase32(s)).
// decodeTime reads only the first 10 characters; ulid_timestamp is NULL wherever ulid_decode is (its COMMENT), so
// decodeTime is the reference only where ulid_decode takes the string (the others are counted).
function ulidExpected(s) {
    let text = s;
    let aliased = false;
    if (!/^[0-7][0-9a-hjkmnp-tv-zA-HJKMNP-TV-Z]{25}$/.test(s)) {
        if (!/[iIlLoO]/.test(s) || s.includes('-')) text = null;
        else { text = fixULIDBase32(s); aliased = true; }
    }
    let uuid = null;
    if (text !== null) { try { uuid = ulidToUUID(text).toLowerCase(); } catch (e) { uuid = null; } }
    if (uuid === null) {
        try { decodeTime(s); stats.decodeTimeOnly++; } catch (e) { /* refused by both */ }
        return null;
    }
    return { uuid, ms: String(decodeTime(text)), ulid: uuidToULID(uuid), aliased };
}

const FIXED_TYPEIDS = ['', '_', 'a_', '_a', 'prefix_', '00000000000000000000000000', '7zzzzzzzzzzzzzzzzzzzzzzzzz',
    '80000000000000000000000000', '8zzzzzzzzzzzzzzzzzzzzzzzzz', 'zzzzzzzzzzzzzzzzzzzzzzzzzz',
    'prefix_01h455vb4pex5vsknk084sn02q', 'PREFIX_01h455vb4pex5vsknk084sn02q', 'prefix_01H455VB4PEX5VSKNK084SN02Q',
    'prefix_0123456789abcdefghjkmnpqrs', 'pre_fix_00000000000000000000000000', 'pre__fix_00000000000000000000000000',
    '_prefix_00000000000000000000000000', 'prefix__00000000000000000000000000', 'prefix-01h455vb4pex5vsknk084sn02q',
    'prefix_01h455vb4pex5vsknk084sn02', 'prefix_01h455vb4pex5vsknk084sn02qq', ' prefix_01h455vb4pex5vsknk084sn02q',
    'prefix_01h455vb4pex5vsknk084sn0iq', 'prefix_01h455vb4pex5vsknk084sn0uq', 'pr\u00e9fix_01h455vb4pex5vsknk084sn02q',
    `${'a'.repeat(63)}_00000000000000000000000000`, `${'a'.repeat(64)}_00000000000000000000000000`,
    '__00000000000000000000000000', 'a_b_00000000000000000000000000'];
const FIXED_ULIDS = ['', '00000000000000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '7zzzzzzzzzzzzzzzzzzzzzzzzz',
    '80000000000000000000000000', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'OOOOOOOOOOOOOOOOOOOOOOOOOO', 'oooooooooooooooooooooooooo',
    'IIIIIIIIIIIIIIIIIIIIIIIIII', 'lLiIoO0123456789abcdefghjk', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '01arz3ndektsv4rrffq69g5fav',
    '01ARZ3NDEK-TSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FAU', '01ARZ3NDEKTSV4RRFFQ69G5FA', '01ARZ3NDEKTSV4RRFFQ69G5FAVV',
    ' 01ARZ3NDEKTSV4RRFFQ69G5FAV', '01ARZ3NDEKTSV4RRFFQ69G5FA\u0130', '01ARZ3NDEK!!!!!!!!!!!!!!!!'];

const t0 = Date.now();
const cases = [];
const jsNotes = []; // the libraries disagreeing with themselves (information, not an idcodec mismatch)
const typeIdList = (list) => list.map((s) => ({ s, expected: jsTypeId(s) }));
const ulidList = (list) => list.map((s) => ({ s, expected: ulidExpected(s) }));

for (let n = 0; n < UUID_CASES; n++) {
    const [kind, value] = genUuid();
    const uuid = uuidText(value);
    const prefix = genPrefix();
    const encoded = jsEncode(prefix, uuid);
    const suffix = TypeID.fromUUID('', uuid).toString();
    // With a refused prefix the TypeID is what such a prefix would give, for typeid_decode to refuse it too.
    const typeId = encoded.value ?? `${prefix}_${suffix}`;
    const ulidText = uuidToULID(uuid);
    const c = { i: cases.length, kind: 'uuid', uuidKind: kind, uuid, prefix, encoded, typeId, ulid: ulidText };
    const typeIds = [typeId];
    for (let k = weighted([[30, () => 0], [40, () => 2], [30, () => 4]]); k > 0; k--) {
        const m = mutateTypeId(typeId);
        if (m !== null && !typeIds.includes(m)) typeIds.push(m);
    }
    const ulids = [ulidText];
    for (let k = weighted([[30, () => 0], [40, () => 2], [30, () => 4]]); k > 0; k--) {
        const m = mutateUlid(ulidText);
        if (m !== null && !ulids.includes(m)) ulids.push(m);
    }
    c.typeIds = typeIdList(typeIds);
    c.ulids = ulidList(ulids);
    if (encoded.value !== undefined && c.typeIds[0].expected?.uuid !== uuid)
        jsNotes.push(`case ${c.i}: typeid-js does not read back ${encoded.value} as ${uuid}`);
    if (c.ulids[0].expected?.uuid !== uuid || c.ulids[0].expected.ms !== String(msOfUuid(uuid)))
        jsNotes.push(`case ${c.i}: ulid does not read back ${ulidText} as ${uuid} of ${msOfUuid(uuid)} ms`);
    stats.kinds[kind] = (stats.kinds[kind] || 0) + 1;
    if (encoded.error) stats.prefixRefused++;
    cases.push(c);
}

for (let n = 0; n < ULID_CASES; n++) {
    const seedTime = Math.max(1, genMs()); // ulid(0) would take Date.now(): the run would not repeat
    // ulid's random part from the seeded generator; often mostly Z, so the monotonic increments carry.
    const prng = chance(0.3) ? () => (chance(0.7) ? 0.99999 : rnd()) : rnd;
    const made = [];
    const times = []; // each ULID's time: monotonicFactory keeps the latest time it was given
    const mode = chance(0.4) ? 'ulid' : 'monotonicFactory';
    try {
        if (mode === 'ulid') {
            made.push(ulid(seedTime, prng));
            times.push(seedTime);
        } else {
            const next = monotonicFactory(prng);
            for (let k = int(2, 6); k > 0; k--) {
                const time = chance(0.8) ? seedTime : Math.max(1, seedTime - int(1, 5));
                made.push(next(time));
                times.push(Math.max(time, ...times));
            }
        }
    } catch (e) {
        // monotonicFactory cannot step past a random part of 16 Z within one millisecond: it throws there (counted,
        // the ULIDs before are checked); anything else it throws is noted.
        if (made.length > 0 && made[made.length - 1].endsWith('Z'.repeat(16))) stats.overflows++;
        else jsNotes.push(`ULID case ${cases.length}: ulid's ${mode} threw ${e.message}`);
    }
    if (made.length === 0) continue;
    const c = { i: cases.length, kind: 'ulid', mode, seedTime, ulids: ulidList(made) };
    c.ulids.forEach((u, k) => {
        if (u.expected?.ulid !== u.s || u.expected.ms !== String(times[k]))
            jsNotes.push(`case ${c.i}: ulid does not read back its ${u.s} (made for ${times[k]} ms)`);
    });
    cases.push(c);
}

for (let n = 0; n < BATCHES; n++) {
    const prefix = chance(0.2) ? 'x' : genPrefix();
    cases.push({ i: cases.length, kind: 'generated', prefix, prefixValid: jsEncode(prefix, uuidText(0n)).error === undefined });
}

cases.push({ i: cases.length, kind: 'fixed', typeIds: typeIdList(FIXED_TYPEIDS), ulids: ulidList(FIXED_ULIDS) });

for (const c of cases) {
    for (const t of c.typeIds || []) { stats.typeIds++; if (t.expected) stats.typeIdsAccepted++; }
    for (const u of c.ulids || []) {
        stats.ulids++;
        if (u.expected) stats.ulidsAccepted++;
        if (u.expected?.aliased) stats.ulidsAliased++;
    }
}
const jsMillis = Date.now() - t0;

// ---------------------------------------------------------------- SQL results (one psql session, one query)
// Each call is wrapped so an SQL error becomes a reported mismatch instead of aborting the run.
const runStart = Date.now();
const { results, sqlMillis } = runSql({
    label: 'typeid',
    seed,
    records: cases.map((c) => ({
        i: c.i, k: { uuid: 'u', ulid: 'l', generated: 'g', fixed: 'f' }[c.kind], p: c.prefix ?? null, u: c.uuid ?? null,
        t: c.typeIds ? c.typeIds.map((x) => x.s) : [], l: c.ulids ? c.ulids.map((x) => x.s) : [],
    })),
    functions: [
        sqlWrapper('te', 'p text, u uuid', 'typeid_encode(p, u)'),
        sqlWrapper('td', 'x text', 'typeid_decode(x)::text'),
        sqlWrapper('tp', 'x text', 'typeid_prefix(x)'),
        sqlWrapper('ue', 'u uuid', 'ulid_encode(u)'),
        sqlWrapper('ud', 'x text', 'ulid_decode(x)::text'),
        sqlWrapper('ut', 'x text', '(extract(epoch FROM ulid_timestamp(x)) * 1000)::bigint::text'),
        sqlWrapper('ur', 'x text', 'ulid_encode(ulid_decode(x))'),
        sqlWrapper('tg', 'p text', 'typeid_generate(p)'),
        sqlWrapper('lg', '', 'ulid_generate()'),
        sqlWrapper('vg', '', 'uuid_generate_v7()::text'),
    ],
    // The generated IDs of a batch come from one generate_series, in its order.
    query: `SELECT jsonb_build_object(
           'i', i,
           'encode', CASE WHEN k = 'u' THEN pg_temp.te(p, u) END,
           'ulid_encode', CASE WHEN k = 'u' THEN pg_temp.ue(u) END,
           'typeids', (SELECT coalesce(jsonb_agg(jsonb_build_array(pg_temp.td(e.x), pg_temp.tp(e.x)) ORDER BY e.o), '[]')
                       FROM jsonb_array_elements_text(t) WITH ORDINALITY AS e(x, o)),
           'ulids', (SELECT coalesce(jsonb_agg(jsonb_build_array(pg_temp.ud(e.x), pg_temp.ut(e.x), pg_temp.ur(e.x))
                                               ORDER BY e.o), '[]')
                     FROM jsonb_array_elements_text(l) WITH ORDINALITY AS e(x, o)),
           'generated', CASE WHEN k = 'g' THEN
               (SELECT jsonb_agg(jsonb_build_array(pg_temp.tg(p), pg_temp.lg(), pg_temp.vg()) ORDER BY n)
                FROM generate_series(1, ${BATCH}) AS n) END)::text
FROM (SELECT (j->>'i')::int AS i, j->>'k' AS k, j->>'p' AS p, (j->>'u')::uuid AS u, j->'t' AS t, j->'l' AS l
      FROM (SELECT line::jsonb AS j FROM interop_cases) raw) c
ORDER BY i;`,
});
const runEnd = Date.now();

// ---------------------------------------------------------------- compare
// the kinds of check, in the order they are reported: the input of each decoder is told by a label (checkLists)
const TYPEID_LABELS = ['', ' (mutated TypeID)', ' (fixed TypeID)'];
const ULID_LABELS = ['', " (ulid's ulid)", " (ulid's monotonicFactory)", ' (mutated ULID)', ' (mutated ULID with aliases)',
    ' (fixed ULID)', ' (fixed ULID with aliases)'];
const compared = comparison([
    'typeid_encode', 'typeid_encode (refused prefix)', 'ulid_encode',
    ...TYPEID_LABELS.flatMap((label) => [`typeid_decode${label}`, `typeid_prefix${label}`]),
    ...ULID_LABELS.flatMap((label) => [`ulid_decode${label}`, `ulid_timestamp${label}`,
        `ulid_encode(ulid_decode(...))${label}`]),
    'typeid_generate', 'typeid_generate (refused prefix)', 'ulid_generate', 'uuid_generate_v7',
]);
const { mismatches, check } = compared;
// A check of an SQL result against a rule: problem(value) says what is wrong with SQL's value, or nothing.
function checkRule(c, what, sqlResult, rule, problem, sqlCall) {
    compared.count(what);
    const wrong = !sqlResult ? '(no row)' : 'e' in sqlResult ? `ERROR ${sqlResult.e}` : problem(sqlResult.v);
    if (wrong) mismatches.push({ c, what, js: rule, sql: `${show(sqlResult?.v)} (${wrong})`, sqlCall });
}
function checkRaises(c, what, sqlResult, sqlstate, jsError, sqlCall) {
    compared.count(what);
    if (sqlResult && 'e' in sqlResult && sqlResult.e.startsWith(`${sqlstate}: `)) return;
    const sql = !sqlResult ? '(no row)' : 'e' in sqlResult ? `ERROR ${sqlResult.e}` : show(sqlResult.v);
    mismatches.push({ c, what, js: `throws ${jsError} (SQL: ERROR ${sqlstate})`, sql, sqlCall });
}

function checkLists(c, r) {
    (c.typeIds || []).forEach((t, k) => {
        const [decoded, prefix] = (r.typeids || [])[k] || [];
        const label = k === 0 && c.kind === 'uuid' ? '' : ` (${c.kind === 'fixed' ? 'fixed' : 'mutated'} TypeID)`;
        check(c, `typeid_decode${label}`, decoded, t.expected?.uuid ?? null, `typeid_decode(${lit(t.s)})`);
        check(c, `typeid_prefix${label}`, prefix, t.expected?.prefix ?? null, `typeid_prefix(${lit(t.s)})`);
    });
    c.ulids.forEach((u, k) => {
        const [decoded, ms, again] = (r.ulids || [])[k] || [];
        const label = c.kind === 'ulid' ? ` (ulid's ${c.mode})` : k === 0 && c.kind === 'uuid' ? ''
            : ` (${c.kind === 'fixed' ? 'fixed' : 'mutated'} ULID${u.expected?.aliased ? ' with aliases' : ''})`;
        check(c, `ulid_decode${label}`, decoded, u.expected?.uuid ?? null, `ulid_decode(${lit(u.s)})`);
        check(c, `ulid_timestamp${label}`, ms, u.expected?.ms ?? null,
            `(extract(epoch FROM ulid_timestamp(${lit(u.s)})) * 1000)::bigint`);
        check(c, `ulid_encode(ulid_decode(...))${label}`, again, u.expected?.ulid ?? null,
            `ulid_encode(ulid_decode(${lit(u.s)}))`);
    });
}

// IDs made in SQL: what is wrong with one given its predecessor in the batch, or nothing.
const inRun = (ms) => (ms >= runStart - CLOCK_SLACK_MS && ms <= runEnd + CLOCK_SLACK_MS ? null
    : `${ms} ms is not within ${CLOCK_SLACK_MS} ms of the run (${runStart}..${runEnd})`);
const RUN_RULE = `a time within ${CLOCK_SLACK_MS} ms of the run`;
function typeIdProblem(prefix, previous) {
    return (v) => {
        let t;
        try { t = TypeID.fromString(v, prefix === '' ? undefined : prefix); } catch (e) { return `typeid-js: ${e.message}`; }
        if (t.getType() !== prefix) return `typeid-js reads the prefix ${JSON.stringify(t.getType())}`;
        let uuid;
        try { uuid = t.toUUID(); } catch (e) { return `typeid-js toUUID(): ${e.message}`; }
        if (uuid[14] !== '7' || !'89ab'.includes(uuid[19])) return `${uuid} is no version 7 UUID`;
        if (previous !== null && !(v > previous)) return `not after ${previous}`; // one prefix: the suffixes decide
        return inRun(msOfUuid(uuid));
    };
}
function ulidProblem(previous) {
    return (v) => {
        let uuid;
        try { uuid = ulidToUUID(v).toLowerCase(); } catch (e) { return `ulid: ${e.message}`; }
        if (uuidToULID(uuid) !== v) return `not the canonical ULID of ${uuid}`;
        if (uuid[14] !== '7' || !'89ab'.includes(uuid[19])) return `${uuid} is no version 7 UUID`;
        if (previous !== null && !(v > previous)) return `not after ${previous}`;
        return inRun(decodeTime(v));
    };
}
function uuidProblem(previous) {
    return (v) => {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(v)) return 'no version 7 UUID';
        try {
            if (TypeID.fromUUID('', v).toUUID() !== v) return 'typeid-js does not read it back';
        } catch (e) { return `typeid-js: ${e.message}`; }
        if (previous !== null && !(v > previous)) return `not after ${previous}`;
        return inRun(decodeTime(uuidToULID(v)));
    };
}

for (const c of cases) {
    const r = results.get(c.i);
    if (!r) { compared.missingRow(c); continue; }
    if (c.kind === 'uuid') {
        const call = `typeid_encode(${lit(c.prefix)}, '${c.uuid}')`;
        if (c.encoded.error) checkRaises(c, 'typeid_encode (refused prefix)', r.encode, '22023', c.encoded.error, call);
        else check(c, 'typeid_encode', r.encode, c.encoded.value, call);
        check(c, 'ulid_encode', r.ulid_encode, c.ulid, `ulid_encode('${c.uuid}')`);
    }
    if (c.kind === 'generated') {
        const batch = r.generated || [];
        const previous = [null, null, null];
        for (let k = 0; k < BATCH; k++) {
            const [tid, ulidValue, uuid] = batch[k] || [];
            const call = `typeid_generate(${lit(c.prefix)})`;
            if (!c.prefixValid) {
                checkRaises(c, 'typeid_generate (refused prefix)', tid, '22023', 'InvalidPrefixError', call);
            } else {
                checkRule(c, 'typeid_generate', tid, `typeid-js reads it, prefix ${JSON.stringify(c.prefix)}, version 7, `
                    + `increasing, ${RUN_RULE}`, typeIdProblem(c.prefix, previous[0]), call);
                previous[0] = tid?.v ?? null;
            }
            checkRule(c, 'ulid_generate', ulidValue, `ulid reads it, version 7, increasing, ${RUN_RULE}`,
                ulidProblem(previous[1]), 'ulid_generate()');
            checkRule(c, 'uuid_generate_v7', uuid, `version 7, typeid-js takes it, increasing, ${RUN_RULE}`,
                uuidProblem(previous[2]), 'uuid_generate_v7()');
            previous[1] = ulidValue?.v ?? null;
            previous[2] = uuid?.v ?? null;
            stats.generated++;
        }
        continue;
    }
    checkLists(c, r);
}

const clip = (s, n) => (s.length > n ? `${s.slice(0, n)}... (${s.length} chars)` : s);
report(compared, cases, `typeid-js ${typeidVersion}/ulid ${ulidVersion}`, (c) => ({
    title: c.kind === 'uuid' ? `${c.uuidKind} UUID` : c.kind === 'ulid' ? `ULIDs of ulid's ${c.mode}`
        : c.kind === 'generated' ? 'IDs made in SQL' : 'fixed strings',
    lines: c.kind === 'uuid' ? [
        `uuid=${c.uuid} prefix=${clip(JSON.stringify(c.prefix), 120)} js_typeid=${c.encoded.value ? c.encoded.value
            : `(prefix refused: ${c.encoded.error})`} js_ulid=${c.ulid}`,
    ] : c.kind === 'ulid' ? [`seed_time=${c.seedTime} ulids=${c.ulids.map((u) => u.s).join(' ')}`]
        : c.kind === 'generated' ? [`prefix=${JSON.stringify(c.prefix)}`] : [],
}));
for (const note of jsNotes.slice(0, 5)) tapDiag(`note (typeid-js/ulid themselves): ${note}`);
if (stats.toUuidRefused > 0) {
    tapDiag(`note: typeid-js toUUID() throws for ${stats.toUuidRefused} TypeIDs it parses (128 bits that are no`
        + ` RFC 9562 UUID of version 1 to 8); typeid_decode gives their UUID, compared with toUUIDBytes(); e.g.`
        + ` ${toUuidRefusedExample[0]}`);
}
if (stats.decodeTimeOnly > 0) {
    tapDiag(`note: ulid decodeTime reads a time from ${stats.decodeTimeOnly} strings ulid_decode rejects`
        + ' (it reads only the first 10 characters); ulid_timestamp is NULL for them, as documented');
}
const kinds = Object.entries(stats.kinds).sort().map(([k, n]) => `${n} ${k}`).join(', ');
tapDiag(`typeid-js ${typeidVersion}, ulid ${ulidVersion}: ${UUID_CASES} UUIDs (${kinds}; ${stats.prefixRefused} with`
    + ` a prefix typeid-js refuses), ${stats.typeIds} TypeID strings (${stats.typeIdsAccepted} valid), ${stats.ulids}`
    + ` ULID strings (${stats.ulidsAccepted} valid, ${stats.ulidsAliased} of them only through Crockford's aliases),`
    + ` ${cases.filter((c) => c.kind === 'ulid').length} cases of ULIDs made by ulid (${stats.overflows} monotonic`
    + ` sequences cut short where the random part overflowed), ${stats.generated} IDs of each`
    + ` kind made in SQL, ${compared.checks} checks; js ${jsMillis} ms, sql ${sqlMillis} ms;`
    + ` rerun with IDCODEC_INTEROP_SEED=${seed}`);
tapDone();
