# snowflake_generate() under pressure, on a cluster of its own whose CLOCK_REALTIME is slowed tenfold by
# test/t/lib/snowflake_clock_shim.c (LD_PRELOAD, through a control file the test changes while the server runs), so
# the clients ask each millisecond for more than its 4,096 IDs and the generator must make them wait for the next
# one: an ID is never ahead of the clock. 8 sessions and a parallel query (its IDs made by 2 workers) take 600,000 IDs
# on node 37; while they do, the clock steps back 500 ms (less than the second the generator waits out), and once that
# is waited out a backend's SIGKILL makes the postmaster restart the server (the clock runs at real speed from then:
# the restart waits for the reservation of the life before, up to a second of the clock, which need not be ten real
# seconds). No call may fail and no ID repeat; each process's IDs increase; every ID has the node and a time the
# clock had shown by the end of its statement; the IDs after the step and after the restart are above all those
# before; the first ID of the server is 100 ms past the clock; the reservation file ends past every ID. Also: the
# shim reads as it should, and PostgreSQL's own clock, pg_sleep and statement_timeout keep real time under it.
# The test waits for events (IDs taken, a step waited out), never counts on work fitting into a stretch of real time.
#
# The clients are psql processes that this script drives from one loop, statement by statement, reading each
# answer as it comes: the client whose statement brings the IDs taken past a mark steps the clock or kills its own
# backend at once, while the others are taking IDs.
#
# Runs on the PostgreSQL of $PG_BIN (any major from 15), into which idcodec is installed: bash test/t/run.sh
# test/t/snowflake_pressure.pl.
use strict;
use warnings;
use lib "$ENV{IDCODEC_ROOT}/test/t/lib";
use IO::Select;
use IPC::Open3;
use IPC::Run;
use Time::HiRes qw(gettimeofday time);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use SnowflakeClock;

my $node_id = 37;
my $slowdown = 10;          # a millisecond of the shimmed clock lasts 10 real ones: 409,600 IDs a real second at most
my $step_back_ms = 500;     # the step back, in shimmed time (5 real seconds to wait out)
my $batch = 5000;           # IDs per statement of a session
my $sessions = 8;
my $session_target = 60000; # IDs each session takes
my $rows = 20000;           # IDs per statement of the parallel query (one per row of its table)
my $parallel_target = 6;    # statements of the parallel query
my $step_at = 200000;       # the first client to see this many IDs taken steps the clock back
my $crash_at = 400000;      # once the step is waited out, the first client to see this many kills its backend
my $lead_bound = 10;        # the documented bound of an ID's time over the clock, in ms

sub now_us { my ($s, $us) = gettimeofday(); return $s * 1_000_000 + $us; }
sub now_ns { return now_us() * 1000; }
my $started = now_ns();
my $dir = PostgreSQL::Test::Utils::tempdir();
my $clock = SnowflakeClock->new;
my $node = PostgreSQL::Test::Cluster->new('snowflake');
$node->init;
$node->append_conf('postgresql.conf',
	"idcodec.node_id = $node_id\nrestart_after_crash = on\nmax_connections = 100\nshared_buffers = 128MB");
# The shimmed clock starts from the real time here, just before the server does.
$clock->change(set => now_ns(), $slowdown);
$clock->start($node);
sub postmaster { return (split /\n/, slurp_file($node->data_dir . '/postmaster.pid'))[0]; }
my $postmaster = postmaster();
sub sql { return $node->safe_psql('postgres', @_); }

# ---- the clocks: the shim's and the server's own
my ($base, $shown) = @{ ($clock->changes)[0] };
my $before = now_ns();
my $under_shim = do { my %env = $clock->env; local @ENV{ keys %env } = values %env; `date +%s%N` };
chomp $under_shim;
my $after = now_ns();
my $within = $under_shim >= $shown + int(($before - $base) / $slowdown)
  && $under_shim <= $shown + int(($after - $base) / $slowdown);
is($within ? 'within' : "real $before..$after, shown $under_shim", 'within',
	"the clock shim: date under it reads the time set + elapsed/$slowdown ("
	  . int(($after - $under_shim) / 1000000) . ' ms behind the real clock)');

sql("CREATE EXTENSION idcodec; CREATE TABLE rows AS SELECT g FROM generate_series(1, $rows) g; ANALYZE rows;\n"
	  . $clock->sql);
is(sql('SELECT count(*) FROM rows'), $rows, "the table the parallel query reads has its $rows rows");

# What the clients took, written as it comes: every statement (statements: source, connection, statement, its real
# start and end in us) and its IDs (taken.csv: the same with the ID and its position); the parallel query's runs
# (plan and IDs); the IDs taken so far, with the real time of each statement's end; the clients cut off.
open(my $taken_csv, '>', "$dir/taken.csv") or die "$dir/taken.csv: $!";
open(my $statements_file, '>', "$dir/statements") or die "$dir/statements: $!";
my (@statements, @parallel_runs, @progress, @lost);
my $taken = 0;
sub record
{
	my ($source, $conn, $statement, $began, $ended, $ids) = @_;
	push @statements, [ $source, $conn, $statement, $began, $ended ];
	print $statements_file "$source $conn $statement $began $ended\n";
	my $position = 0;
	print $taken_csv join(',', $source, $conn, $statement, ++$position, $_, $began, $ended), "\n" for @$ids;
}

# The first ID of the server: a new server life starts at least 100 ms past the clock, and waits for it.
my ($first_before, $first, $first_after) = split(/\|/, sql('SELECT real_us(), snowflake_generate(), real_us()'));
record('first', 1, 0, $first_before, $first_after, [$first]);
$clock->load($node);
is( sql("SELECT unix_ms($first) BETWEEN shim_min_ms($first_before, $first_before) + 100
                                    AND shim_max_ms($first_before, $first_after)"),
	't', "the first ID of the server is 100 ms or more past the shimmed clock's reading at the call, and the call"
	  . ' waited for the clock to get there');

# ---- the clients
# Each is a psql taking IDs, "ids" by statements of $batch, "parallel" by the parallel query (a statement per $rows,
# every row's ID made in a worker: the leader only gathers), until it has its target; a lost connection is made again
# (for up to a minute while the server restarts). A statement's answer is its IDs (and the parallel query's plan),
# then "done".
my @clients = (
	(map { { name => "s$_", kind => 'ids', target => $session_target, per => $batch } } 1 .. $sessions),
	{ name => 'par', kind => 'parallel', target => $parallel_target * $rows, per => $rows });
my $parallel_settings = 'SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;'
  . ' SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;'
  . " SET parallel_leader_participation = off;\n";
my %statement = (
	ids => "\\echo ids\nSELECT snowflake_generate() FROM generate_series(1, $batch);\n\\echo done\n",
	# CREATE TABLE AS keeps the IDs in the order the Gather returned them, from the run EXPLAIN shows
	parallel => "\\echo plan\nEXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF)\n"
	  . "    CREATE TEMP TABLE batch AS SELECT snowflake_generate() AS id FROM rows;\n"
	  . "\\echo ids\nSELECT id FROM batch ORDER BY ctid;\nDROP TABLE batch;\n\\echo done\n");
my $select = IO::Select->new;
my %client_of;    # by the file number of its psql's output
my ($stepped, $waited, $crash);
$SIG{PIPE} = 'IGNORE';    # a write to a psql that died fails instead of killing the test

# psql_start(CLIENT): a psql for it, its messages appended to $dir/NAME.err; it asks for its backend's pid first
sub psql_start
{
	my ($c) = @_;
	open(my $messages, '>>', "$dir/$c->{name}.err") or die "$dir/$c->{name}.err: $!";
	$c->{messages_from} = tell($messages);
	$c->{pid} = open3($c->{in}, $c->{out}, '>&' . fileno($messages), 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('postgres') . " application_name=sf-$c->{name}");
	@$c{qw(buf state)} = ('', 'connecting');
	$c->{connect_until} //= time + 60;
	$client_of{ fileno($c->{out}) } = $c;
	$select->add($c->{out});
	print { $c->{in} } "SELECT pg_backend_pid();\n";
}

# psql_end(CLIENT): its psql's exit status, once it has ended
sub psql_end
{
	my ($c) = @_;
	$select->remove($c->{out});
	delete $client_of{ fileno($c->{out}) };
	close($c->{in});
	close($c->{out});
	waitpid($c->{pid}, 0);
	$c->{pid} = undef;
	return $? >> 8;
}

sub fail_client
{
	my ($c, $why) = @_;
	if (defined $c->{pid}) { kill('TERM', $c->{pid}); psql_end($c); }
	@$c{qw(state failed)} = ('ended', $why);
}

sub send_statement
{
	my ($c) = @_;
	$c->{statement}++;
	@$c{qw(began section plan ids state)} = (now_us(), '', [], [], 'running');
	print { $c->{in} } $statement{ $c->{kind} };
}

# keep(CLIENT, END): what its statement answered, made between its start and END
sub keep
{
	my ($c, $ended) = @_;
	record($c->{name}, $c->{conn}, $c->{statement}, $c->{began}, $ended, $c->{ids});
	push @parallel_runs, { name => "$c->{name}.$c->{conn}.$c->{statement}", plan => $c->{plan}, ids => $c->{ids} }
	  if $c->{kind} eq 'parallel';
}

# done(CLIENT): its statement answered; the step and the crash come from here, so that the other clients are taking
# IDs when they happen
sub done
{
	my ($c) = @_;
	my $ended = now_us();
	keep($c, $ended);
	$c->{taken} += $c->{per};
	$taken += $c->{per};
	push @progress, [ $ended, $c->{per} ];
	$stepped = [ $clock->change(step => -$step_back_ms) ] if !$stepped && $taken >= $step_at;
	# the crash only once the step is waited out (a statement begun after it is done): a crash while the clock is still
	# behind would leave the reservation over a second ahead of it, and the calls would fail until the clock caught up
	# (55000), as they should. From the crash on the clock runs at real speed.
	$waited ||= $stepped && $c->{began} > $stepped->[3] / 1000;
	if ($waited && !$crash && $taken >= $crash_at)
	{
		$crash = { victim => $c->{backend}, at => $ended };
		kill('KILL', $c->{backend});
		$clock->change(step => 0, 1);
	}
	if ($c->{taken} < $c->{target}) { send_statement($c); }
	else { close($c->{in}); $c->{state} = 'finishing'; }
}

sub read_line
{
	my ($c, $line) = @_;
	if ($c->{state} eq 'connecting')
	{
		return fail_client($c, "its first answer was '$line'") unless $line =~ /^\d+$/;
		@$c{qw(backend connect_until)} = ($line, undef);
		$c->{conn}++;
		print { $c->{in} } $parallel_settings if $c->{kind} eq 'parallel';
		send_statement($c);
	}
	elsif ($line eq 'done') { done($c); }
	elsif ($line eq 'plan' || $line eq 'ids') { $c->{section} = $line; }
	elsif ($c->{section} eq 'ids' && $line =~ /^-?\d+$/) { push @{ $c->{ids} }, $line; }
	elsif ($c->{section} eq 'plan') { push @{ $c->{plan} }, $line; }
}

sub read_end
{
	my ($c) = @_;
	my ($state, $status) = ($c->{state}, psql_end($c));
	return $c->{state} = 'ended' if $state eq 'finishing' && $status == 0;
	return fail_client($c, "psql ended with status $status") if $state eq 'finishing';
	# not connected (yet): the server may be restarting
	return @$c{qw(state retry_at)} = ('waiting', time + 0.1) if $state eq 'connecting' && time < $c->{connect_until};
	return fail_client($c, 'no connection for a minute') if $state eq 'connecting';
	# the connection was lost (the crash): what the statement answered was made between its start and now
	keep($c, now_us()) if @{ $c->{ids} };
	# psql says so with its status 2, or when the loss came while it was sending the statement (it then sees a failed
	# statement, not a lost connection), with 3 and the loss as its only error
	my $messages = substr(slurp_file("$dir/$c->{name}.err"), $c->{messages_from});
	return fail_client($c, "psql ended with status $status")
	  unless $status == 2
	  || ($status == 3 && $messages =~ /server closed the connection unexpectedly/ && $messages !~ /ERROR:/);
	push @lost, $c->{name};
	$c->{connect_until} = undef;
	psql_start($c);
}

my $generation_started = now_ns();
psql_start($_) for @clients;
# the step and the crash come from the clients; both must come within 5 minutes (a limit against a hang)
my $until = time + 300;
while (my @running = grep { $_->{state} ne 'ended' } @clients)
{
	for my $c (grep { $_->{state} eq 'waiting' && time >= $_->{retry_at} } @running) { psql_start($c); }
	for my $out ($select->can_read(0.05))
	{
		my $c = $client_of{ fileno($out) };
		if (sysread($out, my $chunk, 1 << 16))
		{
			my @lines = split(/\n/, $c->{buf} . $chunk, -1);
			$c->{buf} = pop @lines;
			for (@lines) { read_line($c, $_) if $c->{state} ne 'ended'; }
		}
		else { read_end($c); }
	}
	for my $c (grep { $_->{state} eq 'running' && now_us() > $_->{began} + 120_000_000 } @running)
	{
		fail_client($c, 'no answer for 120 s');
	}
	if (!$crash && time > $until) { fail_client($_, 'waited 300 s for the crash or the end') for @running; }
}
$clock->change(step => 0, 1) unless $crash;
close($taken_csv);
close($statements_file);
my $generation_ended = now_ns();
my @failed = grep { $_->{failed} } @clients;
is(join('; ', map { "$_->{name}: $_->{failed}" } @failed), '', 'every client took its IDs, none failed')
  or diag(join('', map { `tail -n 20 $dir/$_->{name}.err` } @failed));
ok($crash, 'a client killed its backend (the step came in time)');
if (@failed || !$crash) { done_testing(); exit; }

# the IDs taken before the crash and before the step, and the times
my $killed_taken = 0;
$killed_taken += $_->[1] for grep { $_->[0] < $crash->{at} } @progress;
my ($step_base, $step_done) = @$stepped[ 0, 3 ];
my $before_step_taken = 0;
$before_step_taken += $_->[0] eq 'par' ? $rows : $_->[0] eq 'first' ? 1 : $batch
  for grep { $_->[4] < int($step_base / 1000) } @statements;
my $timings = sprintf('%d IDs before the step in %.3f s (connecting included), %d after it in %.3f s (the wait, the'
	  . ' crash and restart included)', $before_step_taken, ($step_base - $generation_started) / 1e9,
	$taken - $before_step_taken, ($generation_ended - $step_base) / 1e9);

# ---- the checks
my $log = slurp_file($node->logfile);
my %cut_off = map { $_ => 1 } @lost;
my $victim = $crash->{victim};
is( 'it cut off connected again'
	  . ($log =~ /\(PID $victim\) was terminated by signal 9/ ? '' : ', but the log shows no such crash')
	  . ($log =~ /all server processes terminated; reinitializing/ ? '' : ', but the log shows no reinitializing')
	  . (postmaster() eq $postmaster ? '' : ', but the postmaster changed')
	  . (keys %cut_off >= 2 ? '' : ', but too few clients were cut off'),
	'it cut off connected again',
	"the SIGKILL of backend $victim made the postmaster (the same process) restart the server; the "
	  . keys(%cut_off) . ' clients it cut off connected again');

$clock->load($node);
sql("CREATE TABLE taken (source text, conn int, statement int, position int, id bigint, began bigint, ended bigint);
     \\copy taken FROM '$dir/taken.csv' CSV
     CREATE TABLE statements (source text, conn int, statement int, began bigint, ended bigint);
     \\copy statements FROM '$dir/statements' DELIMITER ' '
     ANALYZE taken;
     CREATE TABLE ms AS SELECT DISTINCT began, ended, shim_max_ms(began, ended) AS shown FROM statements;");
my ($total, $duplicates) = split(/\|/,
	sql('SELECT count(*), (SELECT count(*) FROM (SELECT FROM taken GROUP BY id HAVING count(*) > 1) d) FROM taken'));
is($duplicates, 0, "no ID taken twice among all $total");
my $least = $sessions * $session_target + $parallel_target * $rows;
is($total >= $least ? 'yes' : $total, 'yes', "at least $least IDs");

# each process's IDs strictly increasing: each session's connection, its statements in order
my %connections = map { ("$_->[0].$_->[1]" => $_->[1]) } grep { $_->[0] =~ /^s\d+$/ } @statements;
my $first_connections = grep { $_ == 1 } values %connections;
is( sql("SELECT coalesce(string_agg(DISTINCT source || '.' || conn, ' '), '')
         FROM (SELECT source, conn, id <= lag(id) OVER (PARTITION BY source, conn ORDER BY statement, position) AS back
               FROM taken WHERE source ~ '^s[0-9]+\$') t WHERE back"),
	'', "each session's IDs strictly increasing, connection by connection ($first_connections before the crash, "
	  . (keys(%connections) - $first_connections) . ' after)');

# The parallel query: each run launched workers, they took every row's ID (the function is evaluated in the
# Parallel Seq Scan), and the IDs split into no more increasing runs than there were workers (each worker's own
# increase, interleaved by the Gather). The fewest increasing runs: each ID extends the run whose last ID is the
# largest below it (IDs compared as the integers they are, not as doubles).
my @parallel_problems;
my ($launched_total, $interleaved) = (0, 0);
for my $run (@parallel_runs)
{
	my @plan = @{ $run->{plan} };
	my ($launched) = ((map { /Workers Launched: (\d+)/ ? $1 : () } @plan), 0);
	my $worker_rows = 0;
	$worker_rows += $_ for map { /Worker \d+: +actual rows=([\d.]+)/ ? $1 : () } @plan;
	my @tops;    # the last ID of each run
	for my $id (@{ $run->{ids} })
	{
		my ($best) = sort { $tops[$b] <=> $tops[$a] } grep { $tops[$_] < $id } 0 .. $#tops;
		if (defined $best) { $tops[$best] = $id; }
		else { push @tops, $id; }
	}
	$launched_total += $launched;
	$interleaved++ if @tops >= 2;
	my ($scan) = grep { $plan[$_] =~ /Parallel Seq Scan on public\.rows/ } 0 .. $#plan;
	push @parallel_problems, "$run->{name}: not evaluated in the scan"
	  unless defined $scan && ($plan[ $scan + 1 ] // '') =~ /Output: snowflake_generate\(\)/;
	push @parallel_problems, "$run->{name}: $launched workers, $worker_rows rows by them, " . @tops . ' increasing runs'
	  unless $launched >= 1 && $worker_rows == $rows && @tops <= $launched;
}
my $runs = @parallel_runs;
is(join(' ', @parallel_problems) . ($runs >= $parallel_target ? '' : "only $runs runs"), '',
	"the parallel query: $runs runs, $launched_total workers launched, every ID made by a worker; each run's IDs are at"
	  . " most as many increasing runs as workers (interleaved in $interleaved)");

# every ID non-negative, of the node, not before the clock's start, and its millisecond one the clock had shown by
# the end of its statement (the lead: how far past it)
my $low = sql('SELECT shim_min_ms(' . int($base / 1000) . ', ' . int($base / 1000) . ')');
my ($negative, $other_node, $too_early, $untimed, $lead) = split(/\|/, sql(
	"SELECT count(*) FILTER (WHERE id < 0), count(*) FILTER (WHERE (id >> 12) & 1023 <> $node_id),
            count(*) FILTER (WHERE unix_ms(id) < $low), count(*) FILTER (WHERE t.began IS NULL),
            max(unix_ms(id) - shown)
     FROM taken t LEFT JOIN ms USING (began, ended)"), -1);
is("$negative $other_node $too_early $untimed " . (($lead || 0) <= $lead_bound ? 'within' : ''), '0 0 0 0 within',
	"every ID non-negative, of node $node_id, not before the clock's start; none ahead of the clock by more than"
	  . " $lead_bound ms at the end of its statement (the greatest lead: $lead ms)");

# the counter overflowed: milliseconds with all 4096 IDs, and none with more (there cannot be, without a repeat)
my ($max_per_ms, $full_ms, $all_ms, $full_before_step) = split(/\|/, sql(
	"SELECT max(n), count(*) FILTER (WHERE n = 4096), count(*), count(*) FILTER (WHERE n = 4096 AND before_step)
     FROM (SELECT count(*) AS n, bool_and(ended * 1000 < $step_base) AS before_step FROM taken GROUP BY id >> 22) ms"));
is($max_per_ms, 4096, "the clients asked for more than the clock allows: $full_ms of the $all_ms milliseconds hold"
	  . " all 4096 IDs ($full_before_step before the step), none more");

# above(MIN_AFTER, MAX_BEFORE): "above" when the least ID after is above the greatest before
sub above { my ($min, $max) = @_; return $min ne '' && $max ne '' && $min > $max ? 'above' : "$min <= $max"; }
# the step: statements ran across it, waiting for the clock; every ID of a statement begun after it is above every
# ID of one that ended before it
my ($across, $max_before, $min_after, $after_step) = split(/\|/, sql(
	"SELECT (SELECT count(*) FROM statements WHERE began * 1000 < $step_base AND ended * 1000 > $step_done),
            max(id) FILTER (WHERE ended * 1000 < $step_base), min(id) FILTER (WHERE began * 1000 > $step_done),
            count(*) FILTER (WHERE began * 1000 > $step_done)
     FROM taken"), -1);
is(($across >= 1 ? 'under load' : '') . ' ' . above($min_after, $max_before), 'under load above',
	"the clock's step back by $step_back_ms ms came under load ($across statements ran across it) and was waited out:"
	  . " the $after_step IDs after it are above the $before_step_taken before it");

# the crash: every ID of a connection made after it above every ID before it
is( above(reverse split(/\|/, sql("SELECT max(id) FILTER (WHERE conn = 1 AND source <> 'first'),
                                          min(id) FILTER (WHERE conn > 1) FROM taken"), -1)),
	'above', "every ID after the crash above every ID before it ($killed_taken IDs before)");

# the reservation file: a new server life will start past every ID made
my $state_file = $node->data_dir . '/idcodec_snowflake';
my $reservation = -f $state_file ? (split /\n/, substr(slurp_file($state_file), 0, 64))[0] // '' : '';
$reservation =~ s/[^[:print:]]/?/g;
is( $reservation =~ /^idcodec snowflake v2 (\d+)$/ ? sql("SELECT (unix_ms(max(id)) < $1)::text FROM taken") : '',
	'true', "the reservation file idcodec_snowflake (\"$reservation\") is past the greatest ID");

# PostgreSQL's own clocks keep real time: the shim changes only what reads CLOCK_REALTIME
$before = now_us();
my $server_us = sql('SELECT real_us()');
$after = now_us();
is($server_us >= $before && $server_us <= $after ? 'real' : "$server_us not in $before..$after",
	'real', "PostgreSQL's own clock is not slowed: clock_timestamp() is the real time");
$before = now_ns();
sql('SELECT pg_sleep(0.5)');
my $slept = int((now_ns() - $before) / 1000000);
is($slept >= 500 && $slept < 3000 ? 'yes' : '', 'yes', "pg_sleep(0.5) lasts half a real second ($slept ms)");
$before = now_ns();
IPC::Run::run([ 'psql', '-X', '-q', '-At', '-d', $node->connstr('postgres'), '-c', "SET statement_timeout = '300ms'",
		'-c', 'SELECT pg_sleep(10)' ], '>', \my $timeout_error, '2>&1');
chomp $timeout_error;
my $waited_ms = int((now_ns() - $before) / 1000000);
is($waited_ms >= 300 && $waited_ms < 3000 ? $timeout_error : '',
	'ERROR:  canceling statement due to statement timeout',
	"statement_timeout = 300ms stops pg_sleep(10) after 300 real ms ($waited_ms ms)");

note("snowflake_generate() under pressure on PostgreSQL " . sql('SHOW server_version') . ": $total IDs ("
	  . sql("SELECT string_agg(source || ' ' || n, ', ' ORDER BY source)
             FROM (SELECT source, count(*) AS n FROM taken GROUP BY source) s")
	  . "); $timings; at most $max_per_ms per millisecond; " . int((now_ns() - $started) / 1e9) . ' s in all');
done_testing();
