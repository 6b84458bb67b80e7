'use strict';
// Interop test: idcodec's snowflake decoders against other implementations, in two parts chosen by the argument:
//
//   sapphire  (test/integration/snowflake_interop.sh installs @sapphire/snowflake 3.5.5 in test/interop/node_modules)
//     For the twitter and discord layouts, IDs made by the package's TwitterSnowflake and DiscordSnowflake generate()
//     (times across the layout's 41 bits of milliseconds, workerId, processId and increment from 0 to their maxima)
//     and random 63-bit IDs, deconstructed by the package, against
//       - snowflake_timestamp(id, layout) in exact Unix milliseconds = its timestamp,
//       - snowflake_node(id, layout) = workerId << 5 | processId, snowflake_counter(id, layout) = increment,
//       - snowflake_least(at, layout), `at` anywhere within the ID's millisecond, = generate() of that millisecond
//         with workerId, processId and increment 0; where that is no bigint ID (before the epoch, past the last
//         millisecond) SQL must raise 22008;
//     and the same through the custom overloads (the package's epoch, unit 1 ms, 10 node bits, 12 counter bits).
//   sonyflake (needs no npm)
//     Every record of test/vectors/sonyflake/sonyflake.tsv (Sony's Go package, see its README.md):
//     snowflake_timestamp(id, 'sonyflake') = unix_ms, snowflake_counter = sequence, snowflake_node = machine,
//     snowflake_least(snowflake_timestamp(id, ...), ...) = time << 24; and through the custom overloads (epoch
//     2014-09-01 UTC, unit 10 ms, 8 node bits, 16 counter bits: custom layouts put the node above the counter, so
//     there the node is Sony's sequence and the counter its machine ID).
//
// All cases go to PostgreSQL in one psql session and one query (PGHOST/PGPORT/PGUSER/PGDATABASE from the
// environment). Prints TAP (common.js): a test per SQL function and kind of input, passed when every case agrees
// with the reference; exit status 0 when all passed, else 1 (also when the test could not run: package missing or
// of another version, vector file unreadable or inconsistent, psql failed).
//
// Environment: IDCODEC_INTEROP_SEED (uint32), IDCODEC_INTEROP_CASES (default 3000: that many generated and as many
// random IDs per layout; a few fixed edges come on top), IDCODEC_INTEROP_SHOW (mismatches printed in full, default
// 5), PSQL (psql binary).

const fs = require('fs');
const path = require('path');
const {
    packageVersion, interopSeed, CASES, seededRandom, sqlWrapper, runSql, comparison, report, tapDiag, tapDone, fatal,
} = require('./common');

const INT64_MAX = (1n << 63n) - 1n;
// Exact Unix milliseconds of a timestamptz: extract gives a numeric (exact), trim_scale leaves an integer's digits
// only, so a time that is not a whole millisecond shows its fraction instead of being rounded away.
const msOf = (t) => `trim_scale(extract(epoch FROM ${t}) * 1000)::text`;

// ---------------------------------------------------------------- sonyflake vectors
function sonyflakeVectors() {
    const file = path.join(__dirname, '..', 'vectors', 'sonyflake', 'sonyflake.tsv');
    const START_MS = 1409529600000n; // 2014-09-01T00:00:00Z, Sony's default start time
    const cases = [];
    fs.readFileSync(file, 'utf8').split('\n').forEach((text, k) => {
        if (text.trim() === '' || text.startsWith('#')) return;
        const fields = text.split('\t');
        const bad = (why) => fatal(`${file} holds consistent Sonyflake vectors`,
            `line ${k + 1}: ${why}: ${JSON.stringify(text)}`);
        if (fields.length !== 5 || !fields.every((f) => /^\d+$/.test(f))) bad('not five unsigned decimals');
        const [id, time, sequence, machine, unixMs] = fields.map(BigInt);
        // The file's own arithmetic, so a damaged file is told from an idcodec mismatch.
        if (id > INT64_MAX || id !== (time << 24n | sequence << 16n | machine) || sequence > 255n || machine > 65535n
            || unixMs !== START_MS + time * 10n) bad('fields inconsistent with the classic Sonyflake layout');
        cases.push({ i: cases.length, line: k + 1, id, time, sequence, machine, unixMs });
    });
    if (cases.length === 0) fatal(`${file} holds Sonyflake vectors`, 'no records');

    const CUSTOM = "timestamptz '2014-09-01 00:00:00+00', interval '10 milliseconds', 8, 16";
    const { results, sqlMillis } = runSql({
        label: 'sonyflake',
        seed: 'none (fixed vectors)',
        records: cases.map((c) => ({ i: c.i, id: c.id.toString() })),
        functions: [
            sqlWrapper('ts', 'id bigint', msOf("snowflake_timestamp(id, 'sonyflake')")),
            sqlWrapper('nd', 'id bigint', "snowflake_node(id, 'sonyflake')::text"),
            sqlWrapper('ct', 'id bigint', "snowflake_counter(id, 'sonyflake')::text"),
            sqlWrapper('le', 'id bigint', "snowflake_least(snowflake_timestamp(id, 'sonyflake'), 'sonyflake')::text"),
            sqlWrapper('cts', 'id bigint', msOf(`snowflake_timestamp(id, ${CUSTOM})`)),
            sqlWrapper('cnd', 'id bigint', 'snowflake_node(id, 8, 16)::text'),
            sqlWrapper('cct', 'id bigint', 'snowflake_counter(id, 8, 16)::text'),
            sqlWrapper('cle', 'id bigint', `snowflake_least(snowflake_timestamp(id, 'sonyflake'), ${CUSTOM})::text`),
        ],
        query: `SELECT jsonb_build_object('i', i, 'ts', pg_temp.ts(id), 'nd', pg_temp.nd(id), 'ct', pg_temp.ct(id),
           'le', pg_temp.le(id), 'cts', pg_temp.cts(id), 'cnd', pg_temp.cnd(id), 'cct', pg_temp.cct(id),
           'cle', pg_temp.cle(id))::text
FROM (SELECT (j->>'i')::int AS i, (j->>'id')::bigint AS id FROM (SELECT line::jsonb AS j FROM interop_cases) raw) c
ORDER BY i;`,
    });

    const compared = comparison(['snowflake_timestamp', 'snowflake_counter', 'snowflake_node', 'snowflake_least',
        'snowflake_timestamp (custom)', 'snowflake_node (custom: the sequence)', 'snowflake_counter (custom: the machine)',
        'snowflake_least (custom)']);
    const { check } = compared;
    for (const c of cases) {
        const r = results.get(c.i);
        if (!r) { compared.missingRow(c); continue; }
        const least = (c.time << 24n).toString();
        check(c, 'snowflake_timestamp', r.ts, c.unixMs.toString(), msOf(`snowflake_timestamp(${c.id}, 'sonyflake')`));
        check(c, 'snowflake_counter', r.ct, c.sequence.toString(), `snowflake_counter(${c.id}, 'sonyflake')`);
        check(c, 'snowflake_node', r.nd, c.machine.toString(), `snowflake_node(${c.id}, 'sonyflake')`);
        check(c, 'snowflake_least', r.le, least,
            `snowflake_least(snowflake_timestamp(${c.id}, 'sonyflake'), 'sonyflake')`);
        check(c, 'snowflake_timestamp (custom)', r.cts, c.unixMs.toString(),
            msOf(`snowflake_timestamp(${c.id}, ${CUSTOM})`));
        check(c, 'snowflake_node (custom: the sequence)', r.cnd, c.sequence.toString(),
            `snowflake_node(${c.id}, 8, 16)`);
        check(c, 'snowflake_counter (custom: the machine)', r.cct, c.machine.toString(),
            `snowflake_counter(${c.id}, 8, 16)`);
        check(c, 'snowflake_least (custom)', r.cle, least,
            `snowflake_least(snowflake_timestamp(${c.id}, 'sonyflake'), ${CUSTOM})`);
    }
    report(compared, cases, 'sonyflake.tsv', (c) => ({
        title: `sonyflake.tsv line ${c.line}`,
        lines: [`id=${c.id} time=${c.time} sequence=${c.sequence} machine=${c.machine} unix_ms=${c.unixMs}`],
    }));
    tapDiag(`sonyflake vectors (sony/sonyflake v1.3.0): ${cases.length} IDs, ${compared.checks} checks (named`
        + ` layout and custom overloads), ${compared.mismatches.length} mismatches; sql ${sqlMillis} ms`);
    tapDone();
}

// ---------------------------------------------------------------- @sapphire/snowflake
function sapphireLayouts() {
    const SAPPHIRE_VERSION = '3.5.5';
    const version = packageVersion('snowflake', '@sapphire/snowflake', SAPPHIRE_VERSION);
    const sapphire = require('@sapphire/snowflake'); // CommonJS build ("exports" require)
    const { TwitterSnowflake, DiscordSnowflake, MaximumWorkerId, MaximumProcessId, MaximumIncrement } = sapphire;
    // node = workerId << 5 | processId holds only for fields of 5, 5 and 12 bits.
    if (typeof TwitterSnowflake?.generate !== 'function' || typeof DiscordSnowflake?.deconstruct !== 'function'
        || typeof TwitterSnowflake.epoch !== 'bigint' || MaximumWorkerId !== 31n || MaximumProcessId !== 31n
        || MaximumIncrement !== 4095n) {
        fatal(`@sapphire/snowflake ${SAPPHIRE_VERSION} has the export shape this test uses`);
    }
    const LAYOUTS = [
        { name: 'twitter', sf: TwitterSnowflake, js: 'TwitterSnowflake' },
        { name: 'discord', sf: DiscordSnowflake, js: 'DiscordSnowflake' },
    ];
    const TIME_MAX = (1n << 41n) - 1n; // the last millisecond a non-negative 64-bit ID can hold

    const seed = interopSeed('snowflake');
    const { int, pick, weighted, bits, bigint63 } = seededRandom(seed);

    // A millisecond for generate(), spread over the layout's whole range with its edges and bit boundaries weighted.
    function genMs(epoch) {
        const clamp = (ms) => (ms < epoch ? epoch : ms > epoch + TIME_MAX ? epoch + TIME_MAX : ms);
        return weighted([
            [30, () => epoch + bits(41)],
            // 2015 to 2035: IDs as the services hand them out (seconds and milliseconds drawn apart, so every
            // millisecond can come up).
            [20, () => clamp(BigInt(int(1420070400, 2051222400)) * 1000n + BigInt(int(0, 999)))],
            [10, () => epoch + BigInt(int(0, 5000))],
            [10, () => epoch + TIME_MAX - BigInt(int(0, 5000))],
            [15, () => clamp(epoch + (1n << BigInt(int(0, 40))) + pick([-1n, 0n, 1n]))],
            [5, () => pick([epoch, epoch + TIME_MAX])],
        ]);
    }
    // A field value from 0 to max (a BigInt), its ends weighted.
    const genField = (max) => weighted([
        [20, () => 0n], [20, () => max], [5, () => 1n], [5, () => max - 1n], [50, () => BigInt(int(0, Number(max)))],
    ]);
    // Microseconds into the millisecond given to snowflake_least: the unit holding them is that millisecond.
    const genUs = () => weighted([[50, () => 0], [15, () => 999], [35, () => int(1, 998)]]);

    const cases = [];
    const jsNotes = []; // the package disagreeing with itself (information, not an idcodec mismatch)
    const add = (layout, kind, id, ms, us, extra = {}) => {
        const c = { i: cases.length, layout, kind, id, ms, us, ...extra };
        if (id !== null) c.parts = layout.sf.deconstruct(id);
        // What generate() gives for the millisecond holding `at`: the least ID of that millisecond.
        c.least = layout.sf.generate({ timestamp: ms, workerId: 0n, processId: 0n, increment: 0n });
        cases.push(c);
    };
    for (const layout of LAYOUTS) {
        const epoch = layout.sf.epoch;
        for (let n = 0; n < CASES; n++) {
            const options = {
                timestamp: genMs(epoch), workerId: genField(MaximumWorkerId), processId: genField(MaximumProcessId),
                increment: genField(MaximumIncrement),
            };
            const id = layout.sf.generate(options);
            add(layout, 'generated', id, options.timestamp, genUs(), { options });
            const p = cases[cases.length - 1].parts;
            if (p.timestamp !== options.timestamp || p.workerId !== options.workerId
                || p.processId !== options.processId || p.increment !== options.increment)
                jsNotes.push(`${layout.js}.deconstruct(${id}) does not give back the generate() options`);
        }
        for (let n = 0; n < CASES; n++) {
            const id = bigint63();
            add(layout, 'random', id, layout.sf.deconstruct(id).timestamp, genUs());
        }
        for (const id of [0n, 1n, INT64_MAX, 4095n, 4096n, (1n << 22n) - 1n, 1n << 22n])
            add(layout, 'fixed', id, layout.sf.deconstruct(id).timestamp, 0);
        // Times with no ID of their own (before the epoch, past the last millisecond) and the last ones with one.
        for (const [ms, us] of [[0n, 0], [epoch - 1n, 0], [epoch - 1n, 999], [epoch, 0], [epoch + TIME_MAX, 999],
            [epoch + TIME_MAX + 1n, 0], [epoch + TIME_MAX + 1000n, 500]])
            add(layout, 'time only', null, ms, us);
    }

    // ---------------------------------------------------------------- SQL results (one psql session, one query)
    const epochText = (layout) => new Date(Number(layout.sf.epoch)).toISOString();
    // The custom overloads' layout arguments after the epoch; the epoch is the package's, as exact ISO text.
    const CUSTOM = "interval '1 millisecond', 10, 12";
    // `at` from whole milliseconds and microseconds (for the repro lines; the query builds it alike): interval * float8
    // is exact here, every value staying below 2^53 µs, and the 'at' check confirms it at each run.
    const atSql = (ms, us) =>
        `timestamptz 'epoch' + ${ms} * interval '1 millisecond' + ${us} * interval '1 microsecond'`;
    const { results, sqlMillis } = runSql({
        label: 'snowflake',
        seed,
        records: cases.map((c) => ({
            i: c.i, l: c.layout.name, e: epochText(c.layout), id: c.id === null ? null : c.id.toString(),
            ms: c.ms.toString(), us: c.us,
        })),
        functions: [
            sqlWrapper('ts', 'id bigint, l text', msOf('snowflake_timestamp(id, l)')),
            sqlWrapper('nd', 'id bigint, l text', 'snowflake_node(id, l)::text'),
            sqlWrapper('ct', 'id bigint, l text', 'snowflake_counter(id, l)::text'),
            sqlWrapper('le', 't timestamptz, l text', 'snowflake_least(t, l)::text'),
            sqlWrapper('cts', 'id bigint, e timestamptz', msOf(`snowflake_timestamp(id, e, ${CUSTOM})`)),
            sqlWrapper('cnd', 'id bigint', 'snowflake_node(id, 10, 12)::text'),
            sqlWrapper('cct', 'id bigint', 'snowflake_counter(id, 10, 12)::text'),
            sqlWrapper('cle', 't timestamptz, e timestamptz', `snowflake_least(t, e, ${CUSTOM})::text`),
        ],
        // 'at' reads the built timestamptz back in microseconds: the test's own check that it is the intended one.
        query: `SELECT jsonb_build_object('i', i,
           'at', jsonb_build_object('v', trim_scale(extract(epoch FROM t) * 1000000)::text),
           'ts', CASE WHEN id IS NOT NULL THEN pg_temp.ts(id, l) END,
           'nd', CASE WHEN id IS NOT NULL THEN pg_temp.nd(id, l) END,
           'ct', CASE WHEN id IS NOT NULL THEN pg_temp.ct(id, l) END,
           'cts', CASE WHEN id IS NOT NULL THEN pg_temp.cts(id, e) END,
           'cnd', CASE WHEN id IS NOT NULL THEN pg_temp.cnd(id) END,
           'cct', CASE WHEN id IS NOT NULL THEN pg_temp.cct(id) END,
           'le', pg_temp.le(t, l), 'cle', pg_temp.cle(t, e))::text
FROM (SELECT (j->>'i')::int AS i, j->>'l' AS l, (j->>'e')::timestamptz AS e, (j->>'id')::bigint AS id,
             timestamptz 'epoch' + (j->>'ms')::bigint * interval '1 millisecond'
                 + (j->>'us')::int * interval '1 microsecond' AS t
      FROM (SELECT line::jsonb AS j FROM interop_cases) raw) c
ORDER BY i;`,
    });

    // ---------------------------------------------------------------- compare
    const compared = comparison(["the test's own timestamptz", 'snowflake_timestamp', 'snowflake_node',
        'snowflake_counter', 'snowflake_timestamp (custom)', 'snowflake_node (custom)', 'snowflake_counter (custom)',
        'snowflake_least', 'snowflake_least (custom)', 'snowflake_least (time outside the layout)',
        'snowflake_least (custom, time outside the layout)']);
    const { check, raises } = compared;
    const perLayout = new Map(LAYOUTS.map((l) => [l.name, { ids: 0, generated: 0, random: 0, times: 0, refused: 0,
        checks: 0 }]));
    for (const c of cases) {
        const stats = perLayout.get(c.layout.name);
        const checksBefore = compared.checks;
        const r = results.get(c.i);
        if (!r) { compared.missingRow(c); continue; }
        const { name } = c.layout;
        const e = `timestamptz '${epochText(c.layout)}'`;
        const at = atSql(c.ms, c.us);
        check(c, 'the test\'s own timestamptz', r.at, (c.ms * 1000n + BigInt(c.us)).toString(),
            `trim_scale(extract(epoch FROM ${at}) * 1000000)`);
        if (c.id !== null) {
            const p = c.parts;
            const node = (p.workerId << 5n | p.processId).toString();
            check(c, 'snowflake_timestamp', r.ts, p.timestamp.toString(),
                msOf(`snowflake_timestamp(${c.id}, '${name}')`));
            check(c, 'snowflake_node', r.nd, node, `snowflake_node(${c.id}, '${name}')`);
            check(c, 'snowflake_counter', r.ct, p.increment.toString(), `snowflake_counter(${c.id}, '${name}')`);
            check(c, 'snowflake_timestamp (custom)', r.cts, p.timestamp.toString(),
                msOf(`snowflake_timestamp(${c.id}, ${e}, ${CUSTOM})`));
            check(c, 'snowflake_node (custom)', r.cnd, node, `snowflake_node(${c.id}, 10, 12)`);
            check(c, 'snowflake_counter (custom)', r.cct, p.increment.toString(), `snowflake_counter(${c.id}, 10, 12)`);
            stats.ids++;
            if (c.kind === 'generated') stats.generated++;
            if (c.kind === 'random') stats.random++;
        }
        const leastCall = `snowflake_least(${at}, '${name}')`;
        const customLeastCall = `snowflake_least(${at}, ${e}, ${CUSTOM})`;
        if (c.least >= 0n && c.least <= INT64_MAX) {
            check(c, 'snowflake_least', r.le, c.least.toString(), leastCall);
            check(c, 'snowflake_least (custom)', r.cle, c.least.toString(), customLeastCall);
        } else {
            const refusal = `generate() gives ${c.least}, no bigint ID`;
            raises(c, 'snowflake_least (time outside the layout)', r.le, '22008', refusal, leastCall);
            raises(c, 'snowflake_least (custom, time outside the layout)', r.cle, '22008', refusal, customLeastCall);
            stats.refused++;
        }
        stats.times++;
        stats.checks += compared.checks - checksBefore;
    }

    report(compared, cases, `@sapphire/snowflake ${version}`, (c) => ({
        title: `${c.layout.name}, ${c.kind === 'generated' ? `made by ${c.layout.js}.generate()` : `${c.kind} ID`}`,
        lines: [
            c.id === null ? 'no ID' : `id=${c.id} deconstruct: timestamp=${c.parts.timestamp} workerId=`
                + `${c.parts.workerId} processId=${c.parts.processId} increment=${c.parts.increment}`,
            ...(c.options ? [`generate({timestamp: ${c.options.timestamp}, workerId: ${c.options.workerId}, processId: `
                + `${c.options.processId}, increment: ${c.options.increment}})`] : []),
            `at = ${c.ms} ms + ${c.us} us; generate() of that millisecond with the other fields 0: ${c.least}`,
        ],
    }));
    for (const note of jsNotes.slice(0, 5)) tapDiag(`note (@sapphire/snowflake itself): ${note}`);
    for (const layout of LAYOUTS) {
        const s = perLayout.get(layout.name);
        tapDiag(`${layout.name}: ${s.ids} IDs (${s.generated} made by ${layout.js}.generate(), ${s.random} random`
            + ` 63-bit, ${s.ids - s.generated - s.random} fixed), ${s.times} snowflake_least times (${s.refused} with`
            + ` no ID), ${s.checks} checks (named layout and custom overloads)`);
    }
    tapDiag(`@sapphire/snowflake ${version}: ${cases.length} cases, ${compared.checks} checks; sql ${sqlMillis} ms;`
        + ` rerun with IDCODEC_INTEROP_SEED=${seed}`);
    tapDone();
}

const part = process.argv[2];
if (part === 'sonyflake') sonyflakeVectors();
else if (part === 'sapphire') sapphireLayouts();
else fatal('the part to run is named', 'usage: node snowflake_interop.js sapphire|sonyflake');
