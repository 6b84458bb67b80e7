# Snowflake generation never waits on the disk: the reservation file is renewed by the reserver, a background worker,
# half a reservation ahead, calls or none, so a call returns at once even when each sync of that file takes 250 ms (a shim,
# lib/slow_sync_shim.c, slows them and logs which process synced when). Killed, the reserver is started again; with
# no background worker to be had, the calls renew the reservation themselves, and IDs still come. Every ID stays
# below the reservation on disk.
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $sync_ms = 250;
my $push_seconds = 2;
# (absolute: some majors' framework gives a relative one, and the server's processes work in its data directory)
my $dir = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir());
my $shim = "$dir/slow_sync_shim.so";
my $sync_log = "$dir/syncs";
system_or_bail('cc', '-shared', '-fPIC', '-O2', '-Wall', '-Wextra', '-Werror', '-o', $shim,
	dirname(__FILE__) . '/lib/slow_sync_shim.c', '-ldl');

my $node = PostgreSQL::Test::Cluster->new('disk');
$node->init;
sub start
{
	local @ENV{qw(LD_PRELOAD IDCODEC_SLOW_SYNC_MS IDCODEC_SLOW_SYNC_LOG)} = ($shim, $sync_ms, $sync_log);
	$node->start;
}
start();
$node->safe_psql('postgres',
	"CREATE EXTENSION idcodec; LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = 5; SELECT pg_reload_conf();");
$node->poll_query_until('postgres', "SELECT current_setting('idcodec.node_id', true) = '5'")
  or die "the server did not read idcodec.node_id";
$node->safe_psql('postgres', <<'SQL');
CREATE TABLE made (id bigint);
-- generates for `seconds`, keeping every ID; the session's pid and the longest call in microseconds
CREATE FUNCTION push(seconds double precision, OUT pid int, OUT calls bigint, OUT worst_us bigint)
LANGUAGE plpgsql AS $$
DECLARE
    stop timestamptz := clock_timestamp() + seconds * interval '1 second';
    before timestamptz;
    after timestamptz;
    id bigint;
    ids bigint[] := '{}';
BEGIN
    pid := pg_backend_pid();
    calls := 0;
    worst_us := 0;
    LOOP
        -- only the call is timed (the array grows by copying now and then)
        before := clock_timestamp();
        id := snowflake_generate();
        after := clock_timestamp();
        ids := ids || id;
        worst_us := greatest(worst_us, (extract(epoch FROM after - before) * 1000000)::bigint);
        calls := calls + 1;
        EXIT WHEN after >= stop;
    END LOOP;
    INSERT INTO made SELECT unnest(ids);
END $$;
SQL

# syncs(FROM_US): the syncs of the reservation file that began at or after FROM_US: [pid, start, end] each
sub syncs
{
	my ($from) = @_;
	return grep { $_->[1] >= $from }
	  map { [ split ' ' ] } split(/\n/, -e $sync_log ? slurp_file($sync_log) : '');
}
sub now_us { return $node->safe_psql('postgres', 'SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint'); }
sub reservers
{
	return $node->safe_psql('postgres',
		"SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE backend_type = 'idcodec snowflake reserver'");
}

# push(SESSIONS, NAME): SESSIONS sessions generate at once for $push_seconds; checks that each made IDs, and returns
# their pids and longest call, and the syncs made meanwhile
sub push_sessions
{
	my ($sessions, $name) = @_;
	my $from = now_us();
	my @runs = map {
		my $run = { out => '' };
		$run->{harness} = IPC::Run::start(
			[ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c', "SELECT * FROM push($push_seconds)" ],
			'>', \$run->{out}, '2>&1');
		$run;
	} 1 .. $sessions;
	$_->{harness}->finish for @runs;
	my @results = map { [ split /\|/, ($_->{out} =~ s/\s+$//r) ] } @runs;
	is(scalar(grep { @$_ == 3 && $_->[1] > 0 } @results), $sessions, "$name: the $sessions sessions generated")
	  or diag(join("\n", map { $_->{out} } @runs));
	my %pids = map { $_->[0] => 1 } grep { @$_ == 3 } @results;
	my $worst = 0;
	$worst = $_->[2] > $worst ? $_->[2] : $worst for grep { @$_ == 3 } @results;
	my $calls = 0;
	$calls += $_->[1] for grep { @$_ == 3 } @results;
	return (\%pids, $worst, $calls, [ syncs($from) ]);
}

# The first call of a life writes the life's first reservation, while it waits for the clock to pass the start margin,
# and starts the reserver, which then runs before the first renewal is due.
$node->safe_psql('postgres', 'SELECT snowflake_generate()');
ok($node->poll_query_until('postgres',
		"SELECT count(*) = 1 FROM pg_stat_activity WHERE backend_type = 'idcodec snowflake reserver'"),
	"the life's first call started the reserver");

my ($pids, $worst, $calls, $syncs) = push_sessions(2, 'with the reserver');
my @by_calls = grep { $pids->{ $_->[0] } } @$syncs;
is(scalar(@by_calls), 0, 'with the reserver: no call synced the reservation file')
  or diag(join("\n", map { "@$_" } @by_calls));
my $reserver = reservers();
ok($reserver =~ /^\d+$/, "with the reserver: one reserver runs ($reserver)");
my $by_reserver = grep { $_->[0] eq $reserver } @$syncs;
# renewed every half reservation: about 4 times in 2 s, fewer as each takes 250 ms here
cmp_ok($by_reserver, '>=', 2, "with the reserver: it renewed the reservation while the calls went on ($by_reserver syncs)");
cmp_ok($worst, '<', $sync_ms / 2 * 1000,
	"with the reserver: no call took half a sync of $sync_ms ms (the longest took $worst us of $calls calls)");

# No call for longer than a reservation: the reserver has kept it ahead of the clock meanwhile, so the next call, a
# statement of its own, neither syncs nor waits (it wrote and synced the file itself when the reserver renewed only on
# request).
sleep(2 * $push_seconds);
my $idle_from = now_us();
my ($idle_pid, $idle_us) = split(/\|/, $node->safe_psql('postgres',
	"SELECT pg_backend_pid(), (extract(epoch FROM a - b) * 1000000)::bigint
     FROM (SELECT clock_timestamp() AS b, snowflake_generate() AS id, clock_timestamp() AS a OFFSET 0) c"));
my @idle_syncs = grep { $_->[0] eq $idle_pid } syncs($idle_from);
is(scalar(@idle_syncs) . ($idle_us < $sync_ms * 1000 ? ' quick' : " $idle_us us"), '0 quick',
	'after ' . 2 * $push_seconds . " s without a call: the next call neither synced the file nor waited a sync ($idle_us us)");

# A running reserver absorbs the barriers that some commands wait for every process to absorb: DROP DATABASE ends.
$node->safe_psql('postgres', 'CREATE DATABASE dropped');
my ($dropped_out, $dropped_err) = ('', '');
my $dropped = IPC::Run::run(
	[ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c', "SET statement_timeout = '20s'", '-c', 'DROP DATABASE dropped' ],
	'>', \$dropped_out, '2>', \$dropped_err);
ok($dropped, 'with the reserver running, DROP DATABASE ends (its barrier is absorbed)') or diag($dropped_err);

# Killed, the reserver is started again by the next call that asks for a renewal.
$node->safe_psql('postgres', "SELECT pg_terminate_backend($reserver)");
$node->poll_query_until('postgres',
	"SELECT count(*) = 0 FROM pg_stat_activity WHERE backend_type = 'idcodec snowflake reserver'")
  or die 'the reserver did not stop';
($pids, $worst, $calls, $syncs) = push_sessions(2, 'after the reserver was killed');
my $again = reservers();
ok($again =~ /^\d+$/ && $again ne $reserver, "after the reserver was killed: another runs ($again)");
@by_calls = grep { $pids->{ $_->[0] } } @$syncs;
# the first renewal after the kill may be a call's (the reserver starts while the reservation runs out); no later one
cmp_ok(scalar(@by_calls), '<=', 1, 'after the reserver was killed: calls synced at most once')
  or diag(join("\n", map { "@$_" } @by_calls));

# With no background worker to be had, the calls renew the reservation themselves: IDs still come.
$node->append_conf('postgresql.conf', 'max_worker_processes = 0');
$node->stop;
start();
$node->safe_psql('postgres', 'SELECT snowflake_generate()');
($pids, $worst, $calls, $syncs) = push_sessions(1, 'with no background worker');
is(reservers(), '', 'with no background worker: no reserver runs');
@by_calls = grep { $pids->{ $_->[0] } } @$syncs;
cmp_ok(scalar(@by_calls), '>=', 1,
	'with no background worker: the calls renewed the reservation (' . scalar(@by_calls) . ' syncs)');

# Every ID below the reservation on disk, and none repeated.
my $reserved_ms = $node->safe_psql('postgres', "SELECT (regexp_match(pg_read_file('idcodec_snowflake'), 'v2 (\\d+)'))[1]");
is( $node->safe_psql(
		'postgres',
		"SELECT count(*) = count(DISTINCT id), max((id >> 22) + 1672531200000) < $reserved_ms FROM made"),
	't|t',
	"every ID is distinct and below the reservation on disk ($reserved_ms)");

done_testing();
