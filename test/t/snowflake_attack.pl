# What a login role with nothing but the default privileges can do to snowflake_generate() (the extension is trusted
# and PUBLIC may execute its functions), on clusters of its own:
#  a. push it as hard as it can, from 1, 2 and 8 sessions (the 2 and 8 for 30 s each), while a sampler session asks
#     for single IDs every 2 ms and every burst of 200,000 IDs measures its own greatest ID against the clock read
#     right after it: an ID's millisecond may never run ahead of the clock (the bound is 10 ms), however much is
#     asked for. 1.6.0 borrowed from the future without bound, so such a push built a lead of seconds;
#  b. turn that into duplicate keys: push a primary (node 7) for 6 s while rows get snowflake keys, stop it (-m fast,
#     then on a fresh pair -m immediate) and promote its streaming standby, which inserts 20,000 rows with
#     snowflake_generate() keys into the replicated table: no duplicate key, all above every key the primary made;
#  c. choose its own node number: a client's -c idcodec.node_id=99 (PGOPTIONS or options= in the conninfo) is refused
#     with a WARNING and the session keeps the server's number (1.6.0 left it unset: -1, no ID at all), SET and
#     ALTER ROLE on itself fail with 42501; a superuser's -c and a superuser's ALTER ROLE ... SET do apply.
# Reports the largest lead seen and the IDs per second of the node for 1, 2 and 8 sessions.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed: bash test/t/run.sh
# test/t/snowflake_attack.pl. IDCODEC_PUSH_SECONDS shortens the pushes from 2 and 8 sessions (test/major.sh: 5).
use strict;
use warnings;
use IPC::Run;
use List::Util qw(max min sum0);
use Time::HiRes qw(time);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $started = time;
my $role = 'sf_attacker';
my $lead_bound_ms = 10;    # the documented bound of an ID's millisecond over the clock
# The pushes from 2 and from 8 sessions: 30 s on the default major. The generator's code is the same on every major;
# test/major.sh runs them for 5 s, which shows a lead as surely (an unbounded lead grows by seconds in 5 s) at a sixth
# of the cost.
my $push_seconds = $ENV{IDCODEC_PUSH_SECONDS} // 30;
my $single_seconds = 3;      # the single session: only its rate is wanted
my $failover_seconds = 6;    # the push before each failover
my $failover_rows = 20000;   # rows the promoted standby inserts
my @summary;

# the greatest ID (compared as integers: List::Util's max compares doubles, which IDs exceed)
sub greatest { return (sort { $b <=> $a } grep { defined && $_ ne '' } @_)[0]; }
sub as_role { return $_[0]->connstr('postgres') . " user=$role"; }
# psql_c(CONNSTR, VERBOSITY, COMMAND...): the command line of a psql running each command (-c), without .psqlrc
sub psql_c
{
	my ($connstr, $verbosity, @commands) = @_;
	return [ 'psql', '-X', '-q', '-At', '-v', "VERBOSITY=$verbosity", '-d', $connstr, map { ('-c', $_) } @commands ];
}
# output(PSQL_C): the lines it printed, stdout and stderr together
sub output { my $out = ''; IPC::Run::run($_[0], '>', \$out, '2>&1'); return split(/\n/, $out); }

sub new_node
{
	my ($name, %init) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init(%init);
	$node->append_conf('postgresql.conf', "max_connections = 100\nshared_buffers = 128MB");
	$node->start;
	return $node;
}

# set_node(NODE, NUMBER): the node number set as an administrator does, then until new sessions have it
sub set_node
{
	my ($node, $number) = @_;
	$node->safe_psql('postgres', "LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = $number; SELECT pg_reload_conf()");
	$node->poll_query_until('postgres', 'SHOW idcodec.node_id', $number) or die "idcodec.node_id = $number not read";
}

# prepare(NODE, NUMBER): the extension, the role (LOGIN, nothing granted) and the functions it calls, created by the
# superuser (a role with the default privileges may not create them in public since PostgreSQL 15; PUBLIC may
# execute them, and they run with the caller's rights); the node number set as an administrator does.
sub prepare
{
	my ($node, $number) = @_;
	$node->safe_psql('postgres', "CREATE EXTENSION idcodec; CREATE ROLE $role LOGIN;\n" . <<'SQL');
-- IDs in bursts of 200,000 until the time is up; each burst compares its greatest ID's millisecond with the clock
-- read right after it (the heaviest moment of the push). Returns the IDs, the bursts, the largest lead in ms, the
-- greatest ID and the start and end (s since 1970). The rows come from generate_series in the select list, which
-- hands them over one by one: in FROM it collects them all first, and the IDs come about half as fast.
CREATE FUNCTION push(seconds float8, OUT ids bigint, OUT bursts integer, OUT max_lead_ms float8, OUT max_id bigint,
                     OUT started float8, OUT ended float8) LANGUAGE plpgsql AS $$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => seconds);
    burst_ids bigint;
    burst_max bigint;
    burst_lead float8;
BEGIN
    started := extract(epoch FROM clock_timestamp());
    ids := 0;
    bursts := 0;
    LOOP
        SELECT count(*), max(id), extract(epoch FROM snowflake_timestamp(max(id)) - clock_timestamp()) * 1000
          INTO burst_ids, burst_max, burst_lead
          FROM (SELECT snowflake_generate() AS id FROM (SELECT generate_series(1, 200000)) g) burst;
        ids := ids + burst_ids;
        bursts := bursts + 1;
        max_lead_ms := greatest(max_lead_ms, burst_lead);
        max_id := greatest(max_id, burst_max);
        EXIT WHEN clock_timestamp() >= until;
    END LOOP;
    ended := extract(epoch FROM clock_timestamp());
END
$$;
-- One ID every 2 ms until the time is up, each against the clock read right after the call: the lead as a client
-- sees it while the others push. Returns the samples, the largest lead in ms and the greatest ID.
CREATE FUNCTION sample(seconds float8, OUT samples integer, OUT max_lead_ms float8, OUT max_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => seconds);
    id bigint;
BEGIN
    samples := 0;
    WHILE clock_timestamp() < until LOOP
        id := snowflake_generate();
        max_lead_ms := greatest(max_lead_ms, extract(epoch FROM snowflake_timestamp(id) - clock_timestamp()) * 1000);
        max_id := greatest(max_id, id);
        samples := samples + 1;
        PERFORM pg_sleep(0.002);
    END LOOP;
END
$$;
SQL
	set_node($node, $number);
}

# push_from(NODE, SESSIONS, SECONDS): the role pushes from SESSIONS sessions and samples from one more, for SECONDS
# (a test: they all ran to the end). Returns pushed (IDs), bursts, samples, rate (IDs/s of the node), lead (the
# largest lead seen, ms, '' when none) and pushed_max (the greatest ID).
sub push_from
{
	my ($node, $sessions, $seconds) = @_;
	my @runs = map { { out => '' } } 0 .. $sessions;
	for my $i (0 .. $sessions)
	{
		my $function = $i < $sessions ? 'push' : 'sample';
		$runs[$i]{harness} = IPC::Run::start(psql_c(as_role($node), 'default', "SELECT * FROM $function($seconds)"),
			'>', \$runs[$i]{out}, '2>&1');
	}
	my @failed = grep { !$_->{harness}->finish } @runs;
	is(@failed ? join("\n", 'no:', map { $_->{out} } @failed) : 'yes', 'yes',
		"the role's $sessions pushing session(s) and its sampler ran to the end");
	my @push = map { [ split(/\|/, $_->{out} =~ s/\n$//r, -1) ] } @runs[ 0 .. $sessions - 1 ];
	my ($samples, $sample_lead, $sample_max) = split(/\|/, $runs[-1]{out} =~ s/\n$//r, -1);
	my $pushed = sum0(map { $_->[0] || 0 } @push);
	my $span = (max(map { $_->[5] || 0 } @push) // 0) - (min(map { $_->[4] || 0 } @push) // 0);
	my @leads = grep { defined && $_ ne '' } (map { $_->[2] } @push), $sample_lead;
	return (pushed => $pushed, bursts => sum0(map { $_->[1] || 0 } @push), samples => $samples // 0,
		rate => $span > 0 ? int($pushed / $span) : 0, lead => @leads ? max(@leads) : '',
		pushed_max => greatest((map { $_->[3] } @push), $sample_max));
}
sub within_bound { return $_[0] ne '' && $_[0] <= $lead_bound_ms ? 'yes' : 'no'; }

# ---- a. the push: 1 session briefly, then 2 and 8 for 30 s each
my $node = new_node('attack');
prepare($node, 5);
is( $node->safe_psql('postgres', "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls,
        (SELECT count(*) FROM pg_auth_members WHERE member = r.oid) FROM pg_roles r WHERE rolname = '$role'"),
	'f|0', 'the role is a plain login role: no superuser or other role attribute, a member of no role');
for my $sessions (1, 2, 8)
{
	my $seconds = $sessions == 1 ? $single_seconds : $push_seconds;
	my %push = push_from($node, $sessions, $seconds);
	my $lead = $push{lead} eq '' ? '?' : $push{lead};
	is(within_bound($push{lead}), 'yes',
		"$sessions session(s) for $seconds s: $push{pushed} IDs in $push{bursts} bursts, $push{rate} IDs/s on the node;"
		  . " the largest lead of an ID over the clock $lead ms (bursts and $push{samples} samples)"
		  . " <= $lead_bound_ms ms");
	push @summary, "$sessions session(s) $push{rate} IDs/s, lead $lead ms";
}

# ---- b. a failover right after a push
# failover(MODE): a fresh primary (node 7) and its streaming standby; the role pushes from 2 sessions while the
# superuser fills a table with snowflake keys (transactions of 1,000 rows, 20 ms apart); the primary stops with -m MODE
# right after, the standby is promoted and inserts rows with snowflake_generate() keys, one by one, counting duplicates.
sub failover
{
	my ($mode) = @_;
	my $primary = new_node("${mode}_primary", allows_streaming => 1);
	prepare($primary, 7);
	$primary->safe_psql('postgres', <<'SQL');
CREATE TABLE keys (id bigint PRIMARY KEY);
CREATE PROCEDURE fill(seconds float8) LANGUAGE plpgsql AS $$
DECLARE
    until timestamptz := clock_timestamp() + make_interval(secs => seconds);
BEGIN
    WHILE clock_timestamp() < until LOOP
        INSERT INTO keys SELECT snowflake_generate() FROM generate_series(1, 1000);
        COMMIT;
        -- a pause, so that the filler and the standby's replay of its rows leave the CPU to the push
        PERFORM pg_sleep(0.02);
    END LOOP;
END
$$;
-- n rows, each in a subtransaction of its own so that a duplicate key is counted, not fatal; returns the duplicates
CREATE FUNCTION insert_keys(n integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    duplicates integer := 0;
BEGIN
    FOR i IN 1..n LOOP
        BEGIN
            INSERT INTO keys VALUES (snowflake_generate());
        EXCEPTION WHEN unique_violation THEN
            duplicates := duplicates + 1;
        END;
    END LOOP;
    RETURN duplicates;
END
$$;
SQL
	# the reservation file and the node number (postgresql.auto.conf) go with the backup
	$primary->backup('backup');
	my $standby = PostgreSQL::Test::Cluster->new("${mode}_standby");
	$standby->init_from_backup($primary, 'backup', has_streaming => 1);
	$standby->start;
	ok($primary->poll_query_until('postgres', "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'", 1),
		"the standby of the -m $mode round streams");
	my $fill = '';
	my $filler = IPC::Run::start(psql_c($primary->connstr('postgres'), 'default', "CALL fill($failover_seconds)"),
		'>', \$fill, '2>&1');
	my %push = push_from($primary, 2, $failover_seconds);
	my $filled = $filler->finish;
	# The primary's last ID is above every ID it made (tickets only go up); with the pushers' and the table's greatest
	# it bounds every key it made.
	my ($primary_last, $primary_table_max, $primary_rows) =
	  split(/\|/, $primary->safe_psql('postgres', 'SELECT snowflake_generate(), max(id), count(*) FROM keys'));
	my $primary_highest = greatest($primary_last, $primary_table_max, $push{pushed_max});
	my $before_stop = time;
	$primary->stop($mode);
	my $promoted = $standby->safe_psql('postgres', 'SELECT pg_promote()');
	my $failover_ms = int((time - $before_stop) * 1000);
	my $standby_rows = $standby->safe_psql('postgres', 'SELECT count(*) FROM keys');
	my $duplicates = $standby->safe_psql('postgres', "SELECT insert_keys($failover_rows)");
	my $lead = $push{lead} eq '' ? '?' : $push{lead};
	is($filled && $promoted eq 't' ? 'ran, lead ' . within_bound($push{lead}) : $fill, 'ran, lead yes',
		"failover -m $mode: the push (2 sessions, $push{rate} IDs/s) and the filler ran, the largest lead $lead ms"
		  . " <= $lead_bound_ms ms; the primary stopped and the standby was promoted, $failover_ms ms in all");
	is($duplicates, 0, "failover -m $mode: the promoted standby (with $standby_rows of the primary's $primary_rows"
		  . " rows) inserted $failover_rows rows with snowflake_generate() keys: $duplicates duplicate-key errors");
	my $all = $standby_rows + $failover_rows;
	is( $standby->safe_psql('postgres', "SELECT count(*), count(DISTINCT id),
            count(*) FILTER (WHERE id > $primary_highest AND snowflake_node(id) = 7) FROM keys"),
		"$all|$all|$failover_rows",
		"failover -m $mode: every row there, each key once, every new key of node 7 and above every key the primary"
		  . ' made');
	$standby->stop;
	push @summary, "failover -m $mode: $duplicates duplicates";
}
failover('fast');
failover('immediate');

# ---- c. the client's own node number, on the cluster of a
set_node($node, 12);
# session(CONNSTR, [PGOPTIONS]): the node of an ID the session makes and its SHOW, then its errors (terse), joined by
# spaces; then whether a WARNING named the setting, and how many warnings there were
sub session
{
	my ($connstr, $options) = @_;
	local $ENV{PGOPTIONS} = $options if $options;
	my ($out, $err) = ('', '');
	IPC::Run::run(psql_c($connstr, 'terse', 'SELECT snowflake_node(snowflake_generate())', 'SHOW idcodec.node_id'),
		'>', \$out, '2>', \$err);
	my @warnings = grep { /^WARNING:/ } split(/\n/, $err);
	return (join(' ', split(/\n/, $out), grep { /^(ERROR|FATAL)/ } split(/\n/, $err)),
		(grep { /idcodec\.node_id/ } @warnings) ? 'warned' : "no warning: @warnings", scalar(@warnings));
}
my ($values, $warned) = session(as_role($node), '-c idcodec.node_id=99');
is($warned, 'warned', "a non-superuser's PGOPTIONS='-c idcodec.node_id=99' is refused: a WARNING");
is($values, '12 12', "... and the session keeps the configured 12: its IDs' node and SHOW");
($values, $warned) = session(as_role($node) . " options='-c idcodec.node_id=99'");
is($warned, 'warned', "a non-superuser's options='-c idcodec.node_id=99' in the conninfo is refused: a WARNING");
is($values, '12 12', "... and the session keeps the configured 12: its IDs' node and SHOW");
($values) = session($node->connstr('postgres') . ' user=postgres', '-c idcodec.node_id=99');
is($values, '99 99', "a superuser's -c idcodec.node_id=99 applies to its session: its IDs' node and SHOW");
$node->safe_psql('postgres', "ALTER ROLE $role SET idcodec.node_id = 33");
is(join(' ', (session(as_role($node)))[ 0, 2 ]), '33 33 0',
	"ALTER ROLE $role SET idcodec.node_id = 33 by a superuser applies (a superuser's setting): node, SHOW, no warning");
$node->safe_psql('postgres', "ALTER ROLE $role RESET idcodec.node_id");
my $own = "SELECT snowflake_node(snowflake_generate()) || ' ' || current_setting('idcodec.node_id')";
is( join(' ', output(psql_c(as_role($node), 'sqlstate', 'SELECT snowflake_generate() > 0', 'SET idcodec.node_id = 99',
			"SELECT set_config('idcodec.node_id', '99', false)", "ALTER ROLE $role SET idcodec.node_id = 99", $own))),
	't ERROR:  42501 ERROR:  42501 ERROR:  42501 12 12',
	"the role's own SET, set_config and ALTER ROLE ... SET of idcodec.node_id fail with 42501; it keeps 12");
# before the library is loaded in its session the setting is only a placeholder, which anyone may SET; the load must
# not take the role's value
is(join(' ', grep { !/^WARNING:/ } output(psql_c(as_role($node), 'terse', 'SET idcodec.node_id = 99', $own))), '12 12',
	"the role's SET idcodec.node_id = 99 before the library is loaded is not taken: node and setting");

note('snowflake attack on PostgreSQL ' . $node->safe_psql('postgres', 'SHOW server_version') . ': '
	  . join('; ', @summary, int(time - $started) . ' s'));
done_testing();
