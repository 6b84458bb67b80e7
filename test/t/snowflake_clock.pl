# snowflake_generate() when the clock misbehaves and when its reservation file is tampered with, on a cluster of its
# own (node 42) whose CLOCK_REALTIME the test steps while the server runs (test/t/lib/snowflake_clock_shim.c,
# LD_PRELOAD, through a control file; PostgreSQL's own clocks keep real time). The generator must never hand out an ID
# ahead of the clock, nor one twice:
#   1. the clock steps back 5 ms, three times, under 4 generating sessions: the calls wait for it (no ID is ahead of
#      the clock its call read), nothing fails, nothing repeats;
#   2. it steps back 2 s: calls fail with 55000 naming the gap instead of borrowing 2 s from the future, and once the
#      clock has come back to the last ID generation resumes above it;
#   3. it runs an hour ahead (IDs are made) and steps back 1 hour to the right time: 55000 with the gap, also after a
#      restart (the reservation file remembers the IDs made); the documented recovery (stop, remove
#      idcodec_snowflake, start) restarts the IDs from the clock, above those made before the hour ahead;
#   4. it jumps to 1.5 s before the layout's end (2092-09-06 15:47:35.551 UTC, the last of the 41 bits of
#      milliseconds since 2023): IDs of 2092 until the end, then 22008 ("spent"); back at the real time, 55000 with
#      the gap (never "spent", no 2092 ID), also after a restart; the recovery works;
#   5. the reservation file is removed, replaced by an older copy (by a rename and by cp over it) and truncated while
#      4 sessions generate (2 on one connection each, 2 reconnecting for every batch): no ID repeats, generation never
#      stops for long, the file is back (64 bytes, "idcodec snowflake v2 <ms>") soon after each and always promises
#      more than the IDs made before it was read, and no backend crashes (1.6.0 kept its live state in that file,
#      mapped: there a removal or a replacement splits the state and truncation kills with SIGBUS).
#   6. a call is held for 5 s just after reading the clock, as a process taken off its core, while another session
#      makes IDs: the call makes an ID above them, with no 55000 for the clock it read before the pause.
# The server restarts between scenarios, so each begins a server life of its own. Every ID made is kept, with the real
# times before and after its call, and checked against what the stepped clock showed in between.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed: bash test/t/run.sh
# test/t/snowflake_clock.pl.
use strict;
use warnings;
use lib "$ENV{IDCODEC_ROOT}/test/t/lib";
use File::Copy qw(copy);
use POSIX ();
use Time::HiRes qw(gettimeofday sleep time);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use SnowflakeClock;

my $started = time;
my $node_id = 42;
my $epoch_ms = 1672531200000;            # 2023-01-01 UTC, where the pgEdge layout's time begins
my $end_ms = $epoch_ms + (1 << 41);      # the first millisecond past its 41 bits: 2092-09-06 15:47:35.552 UTC
my $lead_bound = 10;                     # the documented bound of an ID's time over the clock, in ms

sub now_us { my ($s, $us) = gettimeofday(); return $s * 1_000_000 + $us; }
my $dir = PostgreSQL::Test::Utils::tempdir();
my $clock = SnowflakeClock->new;
$clock->change(set => now_us() * 1000, 1);
my $node = PostgreSQL::Test::Cluster->new('snowflake');
$node->init;
$node->append_conf('postgresql.conf', "idcodec.node_id = $node_id\nmax_connections = 100\nshared_buffers = 128MB");
$clock->start($node);
my $state = $node->data_dir . '/idcodec_snowflake';
sub sql { return $node->safe_psql('postgres', @_); }
sub restart { $node->stop; $clock->start($node); }
# the documented recovery from a clock that ran far ahead
sub recover { $node->stop; unlink($state); $clock->start($node); }
# await(DESCRIPTION, SECONDS, CONDITION): a test that passes once CONDITION returns true, and fails when SECONDS have
# passed first
sub await
{
	my ($description, $seconds, $condition) = @_;
	my ($until, $done) = (time + $seconds);
	sleep(0.05) until ($done = $condition->()) || time >= $until;
	return ok($done, $done ? $description : "$description (waited ${seconds}s)");
}

sql("CREATE EXTENSION idcodec;\n" . $clock->sql . <<'SQL');
-- every ID made, with the real times before and after its call; n counts in the order of the calls
CREATE TABLE made (n bigserial, scenario text, session text, b bigint, id bigint, a bigint);
-- single calls that may fail, with what they said
CREATE TABLE tried (n bigserial, scenario text, b bigint, id bigint, state text, message text, detail text, hint text,
                    a bigint);
-- each session's last batch: when it began
CREATE TABLE progress (scenario text, session text, last_b bigint, PRIMARY KEY (scenario, session));
CREATE TABLE stop (scenario text);
-- the gap a 55000 names
CREATE FUNCTION gap(message text) RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT substring(message FROM 'the clock is ([0-9]+) ms behind')::bigint $$;

-- a batch of IDs
CREATE FUNCTION generate_batch(scen text, sess text, size int) RETURNS void LANGUAGE sql AS $$
    INSERT INTO made (scenario, session, b, id, a)
        SELECT scen, sess, real_us(), snowflake_generate(), real_us() FROM generate_series(1, size);
$$;
-- batches, each committed, until the scenario is stopped (an error ends the session)
CREATE PROCEDURE generate(scen text, sess text, size int, pause float8) LANGUAGE plpgsql AS $$
DECLARE began bigint;
BEGIN
    WHILE NOT EXISTS (SELECT FROM stop WHERE scenario = scen) LOOP
        began := real_us();
        INSERT INTO made (scenario, session, b, id, a)
            SELECT scen, sess, real_us(), snowflake_generate(), real_us() FROM generate_series(1, size);
        INSERT INTO progress VALUES (scen, sess, began)
            ON CONFLICT (scenario, session) DO UPDATE SET last_b = excluded.last_b;
        COMMIT;
        PERFORM pg_sleep(pause);
    END LOOP;
END $$;
-- single calls, pause seconds apart, until one ends with the SQLSTATE until_state ('00000': an ID) or most were made
CREATE FUNCTION attempt(scen text, until_state text, pause float8, most int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE began bigint; made_id bigint; st text; msg text; det text; hnt text; i int := 0;
BEGIN
    LOOP
        i := i + 1;
        made_id := NULL; st := '00000'; msg := NULL; det := NULL; hnt := NULL;
        began := real_us();
        BEGIN
            made_id := snowflake_generate();
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL,
                                    hnt = PG_EXCEPTION_HINT;
        END;
        INSERT INTO tried (scenario, b, id, state, message, detail, hint, a)
            VALUES (scen, began, made_id, st, msg, det, hnt, real_us());
        EXIT WHEN st = until_state OR i >= most;
        PERFORM pg_sleep(pause);
    END LOOP;
    RETURN i;
END $$;
SQL

# batch(SCENARIO, SESSION, SIZE): that many IDs on a connection of its own
sub batch { my ($scenario, $session, $size) = @_; sql("SELECT generate_batch('$scenario', '$session', $size)"); }

# sessions(SCENARIO, LONG, SHORT, SIZE, PAUSE): LONG sessions on one connection each (l1, l2, ...) and SHORT ones
# connecting for every batch (r1, ...) generate batches of SIZE IDs, PAUSE seconds apart, until stopped. Each is a
# process of its own (it ends with this one, and never runs the END blocks that stop the server), which writes the
# last line of each error to $dir/SCENARIO.errors.
my @session_pids;
END { kill('TERM', @session_pids) if @session_pids; }
sub sessions
{
	my ($scenario, $long, $short, $size, $pause) = @_;
	my $parent = $$;
	for my $session ((map { "l$_" } 1 .. $long), (map { "r$_" } 1 .. $short))
	{
		my $pid = fork() // die "fork: $!";
		if ($pid) { push @session_pids, $pid; next; }
		my $call = "CALL generate('$scenario', '$session', $size, $pause)";
		# the batch and its progress, in one statement on a new connection each time
		$call = "WITH began AS (SELECT real_us() AS at), m AS (
                     INSERT INTO made (scenario, session, b, id, a)
                     SELECT '$scenario', '$session', real_us(), snowflake_generate(), real_us()
                     FROM generate_series(1, $size), began RETURNING 1)
                 INSERT INTO progress SELECT '$scenario', '$session', at FROM began WHERE EXISTS (SELECT FROM m)
                 ON CONFLICT (scenario, session) DO UPDATE SET last_b = excluded.last_b" if $session =~ /^r/;
		do
		{
			my ($status, undef, $stderr) = $node->psql('postgres', $call);
			if ($status)
			{
				append_to_file("$dir/$scenario.errors", "$session: " . ((split /\n/, $stderr)[-1] // '') . "\n");
				sleep(0.05);
			}
			sleep($pause);
		} while ($session =~ /^r/ && !-e "$dir/$scenario.stop" && kill(0, $parent));
		POSIX::_exit(0);
	}
}
sub stop_sessions
{
	my ($scenario) = @_;
	append_to_file("$dir/$scenario.stop", '');
	$node->psql('postgres', "INSERT INTO stop VALUES ('$scenario')");
	waitpid($_, 0) for @session_pids;
	@session_pids = ();
}
# progressed(SCENARIO, SESSIONS, SINCE_US): each of the sessions finished a batch it began after that real time
sub progressed
{
	my ($scenario, $sessions, $since) = @_;
	my ($status, $count) =
	  $node->psql('postgres', "SELECT count(*) FROM progress WHERE scenario = '$scenario' AND last_b > $since");
	return $status == 0 && $count eq $sessions;
}
# errors(PATTERN): the sessions' errors of the scenarios matching the glob PATTERN, counted: the first 3 of them
sub errors
{
	my %count;
	$count{$_}++ for map { split /\n/, slurp_file($_) } grep { -e } glob("$dir/$_[0].errors");
	my @errors = sort keys %count;
	return join('', map { "$count{$_} $_;" } @errors[ 0 .. (@errors > 3 ? 2 : $#errors) ]);
}
# lead(SCENARIO): the greatest lead of its IDs over the latest time the clock showed during their calls, in ms
sub lead
{
	return sql("SELECT coalesce(max(unix_ms(id) - shim_max_ms(b, a)), 0)
                FROM (SELECT b, id, a FROM made WHERE scenario LIKE '$_[0]%'
                      UNION ALL SELECT b, id, a FROM tried WHERE scenario LIKE '$_[0]%' AND id IS NOT NULL) i");
}
# gaps(SCENARIO, LAST, FAR): each call's SQLSTATE and whether its gap is the clock's distance to the last ID's
# millisecond LAST (±2 ms; with up to FAR ms more: the reservation of a server life before)
sub gaps
{
	my ($scenario, $last, $far) = @_;
	return sql("SELECT string_agg(state || CASE WHEN gap(message) BETWEEN $last - shim_max_ms(b, a) - 2
                                                           AND $last - shim_min_ms(b, a) + 2 + $far
                                            AND detail IS NOT NULL AND hint IS NOT NULL THEN ' gap ok'
                                       ELSE ' ' || coalesce(gap(message) - ($last - shim_min_ms(b, a)) || ' ms off',
                                                            message, unix_ms(id) - shim_max_ms(b, a) || ' ms ahead')
                                  END, ', ' ORDER BY n)
                FROM tried WHERE scenario = '$scenario'");
}
sub took { note(sprintf('scenario %s took %d s', $_[0], time - $_[1])); }

# ---- 1. the clock steps back 5 ms, three times, while 4 sessions generate
my $scenario_started = time;
sessions('s1', 4, 0, 200, 0.002);
await('the 4 sessions generate', 60, sub { progressed('s1', 4, 0) });
for my $step (1 .. 3)
{
	my $stepped_at = ($clock->change(step => -5))[3];
	last unless await("the 4 sessions go on after step $step back", 60,
		sub { progressed('s1', 4, int($stepped_at / 1000)) });
}
stop_sessions('s1');
$clock->load($node);
my ($made_1, $distinct_1, $sessions_1) = split(/\|/, sql(
	"SELECT count(*), count(DISTINCT id), count(DISTINCT session) FROM made WHERE scenario = 's1'"));
is(errors('s1'), '', '5 ms back, three times, under 4 sessions: no call failed');
is("$distinct_1 of $sessions_1 sessions", "$made_1 of 4 sessions", "... no ID repeats among the $made_1 they made");
is( sql("SELECT count(*) FROM (SELECT id <= lag(id) OVER (PARTITION BY session ORDER BY n) AS back
                               FROM made WHERE scenario = 's1') m WHERE back"),
	0, "... each session's IDs increase call by call");
my $lead_1 = lead('s1');
is($lead_1 <= 1 ? 'none ahead' : "$lead_1 ms ahead", 'none ahead',
	"... the calls waited for the clock: no ID's millisecond is after the latest one the clock showed during its call,"
	  . " give or take 1 ms (the greatest lead: $lead_1 ms)");
took('1 (5 ms back under load)', $scenario_started);

# ---- 2. the clock steps back 2 s
$scenario_started = time;
restart();
# the step made from the session that generates, between two statements: however slow the machine, the first call
# after it comes well within the second in which the gap would be waited for
sql("SELECT generate_batch('s2', 'before', 1000);\n\\! " . $clock->command(step => -2000)
	  . "\nSELECT attempt('s2.step', '00000', 0.02, 2000)");
batch('s2', 'after', 1000);
$clock->load($node);
# the last ID before the step: its millisecond is the one the gaps are measured from
my $last_2 = sql("SELECT max(unix_ms(id)) FROM made WHERE scenario = 's2' AND session = 'before'");
my ($first_state, $first_gap, $refused, $refused_right, $resumed, $resumed_wait) = split(/\|/, sql("
    SELECT (SELECT state FROM tried WHERE scenario = 's2.step' ORDER BY n LIMIT 1),
           (SELECT coalesce(gap(message)::text, '-') FROM tried WHERE scenario = 's2.step' ORDER BY n LIMIT 1),
           count(*) FILTER (WHERE state <> '00000'),
           count(*) FILTER (WHERE state = '55000' AND gap(message) > 1000 AND detail IS NOT NULL AND hint IS NOT NULL
                              AND gap(message) BETWEEN $last_2 - shim_max_ms(b, a) - 2
                                                   AND $last_2 - shim_min_ms(b, a) + 2),
           count(*) FILTER (WHERE state = '00000' AND shim_max_ms(b, a) >= $last_2
                              AND id > (SELECT max(id) FROM made WHERE scenario = 's2' AND session = 'before')),
           max((a - b) / 1000) FILTER (WHERE state = '00000')
    FROM tried WHERE scenario = 's2.step'"), -1);
my $gap = $first_gap =~ s/-/0/r;
is("$first_state " . ($gap > 1000 && $gap <= 2002 ? 'about 2000' : "$first_gap ms"), '55000 about 2000',
	'2 s back: the first call fails with 55000 naming the gap (about 2000 ms), instead of an ID from the future');
is($refused_right, $refused,
	"... every call fails so while the clock is over 1000 ms behind the last ID ($refused), each with the gap the clock"
	  . ' had (±2 ms), a DETAIL and a HINT');
is($resumed, 1, '... once the clock is back within 1000 ms a call waits for it (' . ($resumed_wait || '?')
	  . ' ms) and generation resumes above the last ID, the clock past it');
my ($made_2, $distinct_2, $above_2) = split(/\|/, sql("
    SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE session = 'after' AND id > (SELECT max(id) FROM made
                                                        WHERE scenario = 's2' AND session = 'before'))
    FROM (SELECT id, session FROM made WHERE scenario = 's2' UNION ALL
          SELECT id, 'after' FROM tried WHERE scenario = 's2.step' AND id IS NOT NULL) i"));
my $lead_2 = lead('s2');
is("$distinct_2 $above_2 " . ($lead_2 <= $lead_bound ? 'within' : ''), "$made_2 1001 within",
	"... no ID repeats, all after above all before, none ahead of the clock by more than $lead_bound ms (the greatest"
	  . " lead: $lead_2 ms)");
took('2 (2 s back)', $scenario_started);

# ---- 3. the clock ran an hour ahead and steps back to the right time; the error survives a restart; the recovery
$scenario_started = time;
restart();
batch('s3', 'before', 1000);
$clock->change(step => 3600000);
# the IDs of the hour ahead and the step back from one session: the first call after the step follows at once
sql("SELECT generate_batch('s3', 'ahead', 1000);\n\\! " . $clock->command(step => -3600000)
	  . "\nSELECT attempt('s3.step', 'none', 0.01, 3)");
restart();
sql("SELECT attempt('s3.restart', 'none', 0.01, 3)");
recover();
batch('s3', 'recovered', 1000);
$clock->load($node);
my $last_3 = sql("SELECT max(unix_ms(id)) FROM made WHERE scenario = 's3' AND session = 'ahead'");
my $gap_3 = sql("SELECT gap(message) FROM tried WHERE scenario = 's3.step' ORDER BY n LIMIT 1") || 0;
is(gaps('s3.step', $last_3, 0) . ' ' . ($gap_3 >= 3599000 && $gap_3 <= 3600002 ? 'about an hour' : ''),
	'55000 gap ok, 55000 gap ok, 55000 gap ok about an hour',
	'an hour ahead and back: 55000, the gap about 3,600,000 ms (' . ($gap_3 || 'none') . ')');
my $gap_3r = sql("SELECT gap(message) FROM tried WHERE scenario = 's3.restart' ORDER BY n LIMIT 1") || 0;
is(gaps('s3.restart', $last_3, 3000), '55000 gap ok, 55000 gap ok, 55000 gap ok',
	'... after a restart too, from the reservation file (the gap ' . ($gap_3r || 'none') . ' ms, the reservation '
	  . ($gap_3r - $gap_3) . ' ms past the first gap)');
my ($made_3, $distinct_3, $from_clock, $placed, $below_3) = split(/\|/, sql("
    SELECT count(*), count(DISTINCT id),
           count(*) FILTER (WHERE scenario = 's3' AND session = 'recovered'
                              AND unix_ms(id) BETWEEN shim_min_ms(b, a) AND shim_max_ms(b, a)),
           count(*) FILTER (WHERE scenario = 's3' AND session = 'recovered'
                              AND id > (SELECT max(id) FROM made WHERE scenario = 's3' AND session = 'before')
                              AND id < (SELECT min(id) FROM made WHERE scenario = 's3' AND session = 'ahead')),
           $last_3 - min(unix_ms(id)) FILTER (WHERE scenario = 's3' AND session = 'recovered')
    FROM (SELECT * FROM made UNION ALL SELECT n, scenario, 'tried', b, id, a FROM tried WHERE id IS NOT NULL) i"), -1);
is("$from_clock $placed $distinct_3", "1000 1000 $made_3",
	'... the recovery (stop, remove idcodec_snowflake, start): 1000 IDs from the clock, above every ID made before it'
	  . " ran ahead, below those of the hour ahead ($below_3 ms), none equal to any ID made in this run ($made_3)");
took('3 (an hour ahead and back)', $scenario_started);

# ---- 4. a jump to 1.5 s before the layout's end, and back
$scenario_started = time;
$node->stop;
$clock->change(set => now_us() * 1000);
$clock->start($node);
my $jump_ms = $end_ms - 1500;
sql("SELECT generate_batch('s4', 'before', 1000);\n\\! " . $clock->command(set => $jump_ms * 1000000)
	  . "\nSELECT attempt('s4.jump', '22008', 0.02, 1000)");
$clock->change(set => now_us() * 1000);
sql("SELECT attempt('s4.back', 'none', 0.01, 3)");
restart();
sql("SELECT attempt('s4.restart', 'none', 0.01, 3)");
recover();
batch('s4', 'recovered', 1000);
$clock->load($node);
my ($made_2092, $made_in_time, undef, $spent_at_end, $spent_message) = split(/\|/, sql("
    SELECT count(*) FILTER (WHERE id IS NOT NULL),
           count(*) FILTER (WHERE unix_ms(id) BETWEEN $jump_ms AND least(shim_max_ms(b, a), $end_ms - 1)),
           count(*) FILTER (WHERE state = '22008'),
           count(*) FILTER (WHERE state = '22008' AND shim_max_ms(b, a) >= $end_ms),
           min(message) FILTER (WHERE state = '22008')
    FROM tried WHERE scenario = 's4.jump'"), -1);
is("$made_in_time $spent_at_end " . ($spent_message =~ /spent/ ? 'spent' : ''),
	($made_2092 >= 1 ? $made_2092 : 'some') . ' 1 spent',
	"a jump to 2092-09-06 15:47:34.052 UTC: IDs of 2092, none ahead of the clock, until the clock passes the layout's"
	  . " end; then 22008 ($spent_message)");
my $last_4 = sql("SELECT max(unix_ms(id)) FROM tried WHERE scenario = 's4.jump'");
my $gap_4 = sql("SELECT gap(message) FROM tried WHERE scenario = 's4.back' ORDER BY n LIMIT 1");
is(gaps('s4.back', $last_4, 0), '55000 gap ok, 55000 gap ok, 55000 gap ok',
	'... back at the real time: 55000 with the gap (' . ($gap_4 || 'none') . ' ms), not "spent", no ID of 2092');
is(gaps('s4.restart', $last_4, 3000), '55000 gap ok, 55000 gap ok, 55000 gap ok', '... after a restart too');
my ($made_4, $distinct_4);
($made_4, $distinct_4, $from_clock) = split(/\|/, sql("
    SELECT count(*), count(DISTINCT id),
           count(*) FILTER (WHERE scenario = 's4' AND session = 'recovered'
                              AND unix_ms(id) BETWEEN shim_min_ms(b, a) AND shim_max_ms(b, a))
    FROM (SELECT * FROM made UNION ALL SELECT n, scenario, 'tried', b, id, a FROM tried WHERE id IS NOT NULL) i"));
is("$from_clock $distinct_4", "1000 $made_4",
	"... the recovery: 1000 IDs from the clock, none equal to any ID made in this run ($made_4)");
took("4 (a jump to the layout's end)", $scenario_started);

# ---- 5. the reservation file removed, replaced and truncated while 4 sessions generate: each operation under
# sessions of its own, so that 1.6.0's long sessions too had mapped the file it changes
$scenario_started = time;
restart();
my $postmaster_started = sql('SELECT pg_postmaster_start_time()');
batch('s5', 'first', 1000);
copy($state, "$dir/older") or die "copy $state: $!";
# first_line(FILE, BYTES): the first line of the file's first bytes, its NULs shown as @
sub first_line
{
	open(my $file, '<', $_[0]) or return '';
	read($file, my $content, $_[1]);
	return (split /\n/, ($content // '') =~ tr/\0/@/r)[0] // '';
}
my $older = first_line("$dir/older", 64);
# older indeed: the IDs made go past its reservation (1.6.0's binary word has none to wait for)
my ($older_ms) = $older =~ /^idcodec snowflake v2 (\d+)$/;
SKIP:
{
	skip("the older copy holds no reservation to wait for (\"$older\")", 1) unless defined $older_ms;
	await("the IDs pass the older copy's reservation", 20,
		sub { batch('s5', 'first', 100); sql("SELECT max(unix_ms(id)) >= $older_ms FROM made") eq 't' });
}
# reservation(): whether the file holds a reservation (64 bytes, "idcodec snowflake v2 <unix ms>") written by the
# server (not the older copy's); each is kept with the real time before it was read, to be checked against the IDs
# made before then
my @reads;
sub reservation
{
	my $at = now_us();
	my $content = first_line($state, 80);
	return 0 unless (-s $state // 0) == 64 && $content =~ /^idcodec snowflake v2 (\d+)$/ && $1 ne ($older_ms // '');
	push @reads, [ $at, $1 ];
	return 1;
}
my %operations = (
	remove => sub { unlink($state) },
	rename => sub { copy("$dir/older", "$state.new") && rename("$state.new", $state) },
	cp => sub { copy("$dir/older", $state) },
	truncate => sub { truncate($state, 0) });
my @backs;
for my $operation (qw(remove rename cp truncate))
{
	my $scenario = "s5.$operation";
	sessions($scenario, 2, 2, 100, 0.005);
	await("$operation: the 4 sessions generate", 60, sub { progressed($scenario, 4, 0) });
	my $done_at = now_us();
	$operations{$operation}->() or die "$operation: $!";
	push @backs, await("$operation: the file is back, a reservation", 5, \&reservation)
	  ? int(($reads[-1][0] - $done_at) / 1000) : 'never';
	my $since = now_us();
	await("$operation: the 4 sessions go on", 10, sub { progressed($scenario, 4, $since) });
	reservation();
	stop_sessions($scenario);
}
my ($made_5, $distinct_5, $longest) = split(/\|/, sql("
    SELECT count(*), count(DISTINCT id), max(a - previous) / 1000
    FROM (SELECT id, a, lag(a) OVER (PARTITION BY scenario ORDER BY a) AS previous
          FROM made WHERE scenario LIKE 's5%') m"), -1);
is(errors('s5.*'), '', 'the reservation file removed, replaced by an older copy (by a rename, by cp over it) and'
	  . ' truncated under 4 sessions: no call failed');
my $repeated = sql("
    SELECT string_agg(split_part(scenario, '.', 2) || ' ' || n, ', ' ORDER BY scenario)
    FROM (SELECT scenario, count(*) FILTER (WHERE r.id IS NOT NULL) AS n
          FROM made
          LEFT JOIN (SELECT id FROM made WHERE scenario LIKE 's5%' GROUP BY id HAVING count(*) > 1) r USING (id)
          WHERE scenario LIKE 's5.%' GROUP BY scenario) o");
is($distinct_5 . ($distinct_5 eq $made_5 ? '' : " (the IDs made twice, by operation: $repeated)"), $made_5,
	"... no ID repeats among the $made_5 made");
is(($longest || 0) <= 1000 ? 'no' : '', 'no',
	"... generation never stopped for over a second (the longest pause: $longest ms)");
is(join('', map { /^\d+$/ ? 'ok ' : "$_ " } @backs), 'ok ok ok ok ',
	"... after each, the server writes the file again, 64 bytes \"idcodec snowflake v2 <ms>\" (after @backs ms; the"
	  . " older copy: $older)");
my $reads = join(', ', map { "($_->[0], $_->[1])" } @reads);
is( @reads ? sql("SELECT count(*) FROM (VALUES $reads) r (at, reserved)
                  WHERE reserved <= (SELECT max(unix_ms(id)) FROM made WHERE scenario LIKE 's5%' AND a < r.at)") : 0,
	0, '... every reservation the server wrote that was read (' . scalar(@reads) . ') is past every ID of this server'
	  . ' life whose call had ended before it was read');
my (undef, $now_started, $now_error) = $node->psql('postgres', 'SELECT pg_postmaster_start_time()');
my @signals = grep { /terminated by signal/ } split(/\n/, slurp_file($node->logfile));
is("$now_started$now_error " . join("\n", @signals[ 0 .. ($#signals < 2 ? $#signals : 2) ]), "$postmaster_started ",
	"... no backend crashed (the postmaster's start time is the same, the log shows no signal)");
took('5 (the reservation file)', $scenario_started);

# ---- 6. a call taken off its core for 5 s just after it read the clock (the shim sleeps then, in that backend only),
# while another session makes IDs 1.3 s later: the tickets taken meanwhile are not a clock 1.3 s behind. Judged by
# its old reading, the call refused them as such (55000); a shorter absence made it sleep once more.
$scenario_started = time;
restart();
batch('s6', 'before', 10);
my $paused_pid = fork() // die "fork: $!";
if (!$paused_pid)
{
	$node->psql('postgres', "SET application_name = 's6.paused'; SELECT pg_sleep(5); SELECT attempt('s6.paused', '00000', 0, 1)");
	POSIX::_exit(0);
}
push @session_pids, $paused_pid;
my $backend;
await('the session to be paused is there', 30, sub {
	$backend = sql("SELECT pid FROM pg_stat_activity WHERE application_name = 's6.paused'");
	return $backend ne '';
});
$clock->change(pause => $backend, 5000);
# the pause begins at the call's reading of the clock, after its 5 s of sleep
await('the call read the clock and is held', 30, sub { $clock->pause_taken });
sleep(1.3);
batch('s6', 'meanwhile', 10);
waitpid($paused_pid, 0);
@session_pids = grep { $_ != $paused_pid } @session_pids;
my ($state_6, $message_6, $after_6, $while_6) = split(/\|/, sql("
    SELECT t.state, coalesce(t.message, ''), t.id > (SELECT max(id) FROM made WHERE scenario = 's6'),
           (SELECT min(b) - t.b >= 1100000 AND max(a) < t.a FROM made WHERE scenario = 's6' AND session = 'meanwhile')
    FROM tried t WHERE t.scenario = 's6.paused'"), -1);
is($while_6, 't', 'a session made IDs over a second after the paused call read the clock, before that call ended');
is("$state_6 $message_6", '00000 ', '... and the paused call made an ID: no 55000 for a clock read before its pause');
is($after_6, 't', "... above every ID made before it returned");
took('6 (a call off its core after reading the clock)', $scenario_started);

my ($made_all, $distinct_all) = split(/\|/, sql('SELECT count(*), count(DISTINCT id)
    FROM (SELECT id FROM made UNION ALL SELECT id FROM tried WHERE id IS NOT NULL) i'));
my $lead_all = lead('s');
is("$distinct_all " . sql("SELECT count(*) FROM made WHERE (id >> 12) & 1023 <> $node_id") . ' '
	  . ($lead_all <= $lead_bound ? 'within' : ''),
	"$made_all 0 within",
	"in all: no ID repeats among the $made_all made; every ID of node $node_id; none ahead of the clock by more than"
	  . " $lead_bound ms (the greatest lead: $lead_all ms)");
note('snowflake_generate() and the clock on PostgreSQL ' . sql('SHOW server_version') . ": $made_all IDs; "
	  . int(time - $started) . ' s in all');
done_testing();
