# Many writers: three servers, each with its own idcodec.node_id (1, 2, 3), each publishing one table keyed by
# snowflake_generate() (with ulid and typeid columns from gen_ulid() and gen_typeid()) and subscribing to the two
# others with PostgreSQL's own logical replication (origin = none, so a row goes only from the server where it was
# written; binary = true, so the types travel in their binary form; copy_data = false, the tables start empty).
# A client on every server writes a fixed number of rows in small batches, all at once, recording the keys of each
# batch the server acknowledged; half-way through its rows, server 2's postmaster gets SIGKILL and is started
# again (crash recovery) while the others write on, and its client connects again and goes on. Then every server
# must get every row: every acknowledged key on every server, the three tables identical (a digest of all columns
# ordered by key), no error in any server's log but those of the lost connections (a duplicate key would stop the
# apply with "duplicate key value violates unique constraint"), and every key's snowflake_node() the number of the
# server whose client got it. Reports the rows per second written and the replication lag (from the end of the
# writing until the three tables were equal).
#
# Needs PostgreSQL 16 or later (origin = none): skips on 15; runs on the PostgreSQL of PG_BIN, into which idcodec is
# installed (test/major.sh runs it on 16, 17 and 18). The writers: test/t/lib/IdcodecWriter.pm.
use strict;
use warnings;
use lib "$ENV{IDCODEC_ROOT}/test/t/lib";
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use Cwd ();
use IdcodecWriter;

my ($major) = `pg_config --version` =~ /PostgreSQL (\d+)/;
plan skip_all => "PostgreSQL $major has no subscriptions with origin = none (16 or later)" if $major < 16;
my $started = time;

my $rows = $ENV{MESH_ROWS} || 50000;    # rows each server's client writes (acknowledged), in batches of
my $batch = 50;
my $victim = 2;    # the server whose postmaster is killed, when its client has written half its rows
my @nodes = (1, 2, 3);

my %node;
for my $n (@nodes)
{
	$node{$n} = PostgreSQL::Test::Cluster->new("n$n");
	$node{$n}->init(allows_streaming => 'logical');
	# A subscription whose connection was lost is tried again after 0.2 s. The log lines name the process (%b), so
	# each error can be told from where it came.
	$node{$n}->append_conf('postgresql.conf', qq(
wal_retrieve_retry_interval = '200ms'
log_line_prefix = '%m [%p] %b: '
max_connections = 100
shared_buffers = '128MB'
));
	$node{$n}->start;
	# LOAD first, so that ALTER SYSTEM knows the setting and checks the value; then until a new session has it
	$node{$n}->safe_psql('postgres',
		"CREATE EXTENSION idcodec; LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = $n; SELECT pg_reload_conf();");
	$node{$n}->poll_query_until('postgres', "SELECT current_setting('idcodec.node_id', true) = '$n'")
	  or die "server $n did not read idcodec.node_id";
	$node{$n}->safe_psql('postgres', q{
CREATE TABLE item (
    id bigint DEFAULT snowflake_generate() PRIMARY KEY,
    u ulid NOT NULL DEFAULT gen_ulid(),
    t typeid NOT NULL DEFAULT gen_typeid('item'),
    writer int NOT NULL,
    n int NOT NULL
);
CREATE PUBLICATION mesh FOR TABLE item;});
}
# Each server subscribes to the two others; the subscriptions' names (and so their slots on the publishers) name
# both ends, since each publisher has a slot for each of the two others.
for my $n (@nodes)
{
	for my $from (grep { $_ != $n } @nodes)
	{
		$node{$n}->safe_psql('postgres', "SET client_min_messages = warning; CREATE SUBSCRIPTION s${n}_from_$from
			CONNECTION '" . $node{$from}->connstr . " dbname=postgres'
			PUBLICATION mesh WITH (origin = none, binary = true, copy_data = false)");
	}
}

# every server's two apply workers running, before any row is written
ok( (grep {
			$node{$_}->poll_query_until('postgres',
				'SELECT count(DISTINCT subid) FROM pg_stat_subscription WHERE pid IS NOT NULL AND relid IS NULL', '2')
		} @nodes) == 3,
	"every server's two apply workers run");
sub each_node { my $sql = shift; return join(',', map { $node{$_}->safe_psql('postgres', $sql) } @nodes); }
is(each_node("SELECT count(*) FROM pg_subscription WHERE suborigin = 'none' AND subbinary"),
	'2,2,2',
	'three servers of PostgreSQL '
	  . $node{1}->safe_psql('postgres', 'SHOW server_version')
	  . ', node numbers '
	  . each_node('SHOW idcodec.node_id')
	  . ', each subscribed to the two others');

# ---- the writers, all at once. The victim's own client kills its postmaster when it has written half its rows:
# the kill comes in the middle of the writing however fast or slow the machine is. The postmaster's children
# (backends, walsenders, apply workers) see it gone and exit.
my ($postmaster, $killed_at, $restarted_at);
my %writer;
for my $n (@nodes)
{
	$writer{$n} = IdcodecWriter->new(
		node => $node{$n},
		name => "n$n",
		rows => $rows,
		batch => $batch,
		sql => sub {
			my ($from, $to) = @_;
			return "INSERT INTO item (writer, n) SELECT $n, g FROM generate_series($from, $to) g RETURNING id";
		},
		after_batch => sub {
			my $w = shift;
			return if $n != $victim || $w->{done} < $rows / 2 || defined $killed_at;
			($postmaster) = split /\n/, slurp_file($node{$victim}->data_dir . '/postmaster.pid');
			$node{$victim}->kill9;
			$killed_at = time;
		});
}
my @writers = map { $writer{$_} } @nodes;

# ---- the kill, and the victim started again once every process of its old life has gone (a process still
# attached to the old shared memory, or an unreaped postmaster still named in postmaster.pid, would keep the new
# postmaster from starting)
ok(IdcodecWriter::drive(\@writers, until => sub { defined $killed_at }),
	"server ${victim}'s postmaster killed (SIGKILL) when its client had written half its rows");
my $victim_dir = Cwd::realpath($node{$victim}->data_dir);
sub old_processes
{
	return 1 if -e "/proc/$postmaster";
	for my $cwd (glob '/proc/[0-9]*/cwd')
	{
		my $dir = readlink $cwd;
		return 1 if defined $dir && $dir eq $victim_dir;
	}
	return 0;
}
ok(IdcodecWriter::drive(\@writers, until => sub { !old_processes() }),
	"every process of the killed server ended");
ok($node{$victim}->start(fail_ok => 1), "server $victim started again");
$restarted_at = time;
IdcodecWriter::drive(\@writers);
ok(!(grep { !$_->ended || $_->{state} eq 'failed' || $_->{done} != $rows } @writers),
	'every writer wrote its rows, without an error (a psql that ended had lost its connection)')
  or diag(join("\n", map { $_->{error} // "writer $_->{name}: $_->{done} rows, $_->{state}" } @writers));
my ($first_batch) = sort { $a <=> $b } map { $_->{started} // time } @writers;
my ($writing_ended) = sort { $b <=> $a } map { $_->{finished} // time } @writers;

# ---- every server gets every row: each server's own rows, counted there, are what the others must have
my $origin_counts =
  join('|', map { $node{$_}->safe_psql('postgres', "SELECT count(*) FROM item WHERE writer = $_") } @nodes);
my $counts_of = 'SELECT count(*) FILTER (WHERE writer = 1), count(*) FILTER (WHERE writer = 2),
                        count(*) FILTER (WHERE writer = 3) FROM item';
# (not fatal: when they do not converge, the checks below show what is missing and the logs why)
$node{$_}->poll_query_until('postgres', $counts_of, $origin_counts) for @nodes;
my $converged_at = time;
is(join(' ', map { $node{$_}->safe_psql('postgres', $counts_of) } @nodes),
	"$origin_counts $origin_counts $origin_counts",
	'every server got every row (each server\'s own rows: ' . join(', ', split /\|/, $origin_counts) . ')');

# ---- the checks
my $log_victim = slurp_file($node{$victim}->logfile);
is( join(' ',
		($log_victim =~ /database system was interrupted|was not properly shut down; automatic recovery in progress/
		? 'recovered' : ()),
		($writer{$victim}{lost} > 0 ? 'reconnected' : ())),
	'recovered reconnected',
	"server ${victim}'s postmaster killed (SIGKILL) half-way through its rows and started again: crash recovery ran, "
	  . 'its client connected again');

# the acknowledged keys, as id,writer
my $csv = PostgreSQL::Test::Utils::tempdir() . '/acked.csv';
open my $fh, '>', $csv or die "$csv: $!";
my (%seen, $acked);
for my $n (@nodes)
{
	for my $key (@{ $writer{$n}{keys} })
	{
		print $fh "$key,$n\n";
		$seen{$key}++;
		$acked++;
	}
}
close $fh;
my $twice = grep { $_ > 1 } values %seen;
is("$acked $twice", $rows * @nodes . ' 0',
	"every client had its $rows rows acknowledged, " . $rows * @nodes . ' keys in all, none twice');

my (%found, %digest);
for my $n (@nodes)
{
	my ($acked_there, $all, $distinct_u, $distinct_t, $wrong_node, $digest) = split /\|/,
	  $node{$n}->safe_psql('postgres', qq{
CREATE TEMP TABLE acked (id bigint, writer int);
\\copy acked FROM '$csv' (FORMAT csv)
SELECT (SELECT count(*) FROM acked a JOIN item i ON i.id = a.id AND i.writer = a.writer),
       count(*), count(DISTINCT u), count(DISTINCT t), count(*) FILTER (WHERE snowflake_node(id) <> writer),
       md5(string_agg(concat_ws(' ', id, u, t, writer, n), E'\\n' ORDER BY id))
FROM item;});
	($found{$n}, $digest{$n}) = ($all, $digest);
	is("$acked_there $wrong_node $distinct_u $distinct_t", "$acked 0 $all $all",
		"server $n has every acknowledged key (as its writer's), $acked of $acked; every key's snowflake_node() is "
		  . "its writer's server; ulid and typeid unique too ($all rows)");
}
is("$digest{2} $digest{3} $found{2} $found{3}", "$digest{1} $digest{1} $found{1} $found{1}",
	"the three servers' tables are identical (md5 of every row ordered by key: $digest{1})");

# No error in any log (every server is a subscriber) but those of the lost connections, each told by what it says
# and which process said it (an apply worker names its subscription when it starts, a walsender the slot):
# - an apply worker of a subscription to the killed server: its stream ended (as it read or as it sent feedback); the
#   server refused it while down or starting up (its socket refused or gone); or (its successor, started at once)
#   the origin was still held by the worker whose stream ended;
# - the killed server's own subscriptions, started again: their slot on a publisher still held by the walsender of
#   their old life (its walsender there says so too).
# Anything else, a duplicate key above all (the apply of a row whose key a server has already), fails.
# (a Unix socket: refused while no server listens, gone while the new server starts)
my $refused = qr/Connection\ refused|No\ such\ file\ or\ directory
                 |the\ database\ system\ is\ (?:starting\ up|not\ yet\ accepting\ connections|in\ recovery\ mode)/x;
sub classify_errors    # a line "expected: KIND" or "unexpected: LINE" per ERROR or PANIC in server N's log
{
	my $n = shift;
	my (%subscription, $pid, @lines);
	for (split /\n/, slurp_file($node{$n}->logfile))
	{
		$pid = $1 if /\[(\d+)\]/;
		$subscription{$pid} = $1
		  if defined $pid && / LOG:  logical replication apply worker for subscription "([^"]+)" has started/;
		# the message after the line's first ERROR (an apply worker quotes the publisher's ERROR after its own)
		next unless /^.*? (ERROR|PANIC):  (.*)$/;
		my ($level, $msg) = ($1, $2);
		my $mine = $subscription{ $pid // '' } // '';
		my $to_victim = $mine =~ /^s\d+_from_$victim$/;
		my $of_victim = $n == $victim && $mine =~ /^s${victim}_from_\d+$/;
		my ($other) = $msg =~ / PID (\d+)$/;
		my $kind = '';
		if ($level eq 'PANIC') { }
		elsif ($to_victim
			&& $msg =~ /^could not (receive|send) data (from|to) WAL stream: server closed the connection unexpectedly/)
		{
			$kind = 'apply worker: the stream from the killed server ended';
		}
		elsif ($to_victim
			&& $msg =~ /could not connect to the publisher: .*$refused/)
		{
			$kind = 'apply worker: the killed server refused the connection (down or starting up)';
		}
		elsif ($to_victim && $msg =~ /server closed the connection unexpectedly/)
		{
			$kind = 'apply worker: the connection to the killed server closed';
		}
		elsif ($to_victim
			&& $msg =~ /^replication origin with ID \d+ is already active for PID \d+$/
			&& ($subscription{$other} // '') eq $mine)
		{
			$kind = 'apply worker: the origin still held by the worker whose stream ended';
		}
		elsif ($of_victim
			&& $msg =~ /^could not start WAL streaming: ERROR:  replication slot "\Q$mine\E" is active for PID/)
		{
			$kind = "the killed server's apply worker: its slot still held by its old walsender";
		}
		elsif ($n != $victim && $msg =~ /^replication slot "s${victim}_from_$n" is active for PID \d+$/)
		{
			$kind = "walsender: the slot of the killed server's subscription still held by its old walsender";
		}
		push @lines, $kind eq '' ? "unexpected: n$n.log: $_" : "expected: n$n.log: $kind";
	}
	return @lines;
}
my @errors = map { classify_errors($_) } @nodes;
my @expected = map { /^expected: (.*)/ ? $1 : () } @errors;
is(join("\n", map { s/^unexpected: //r } grep { /^unexpected: / } @errors),
	'', 'no error in the servers\' logs but the ' . scalar(@expected) . ' of lost connections');
my %kinds;
$kinds{$_}++ for @expected;
note("    $kinds{$_} $_") for sort keys %kinds;

sub seconds { return sprintf('%.2f', $_[1] - $_[0]); }
my $elapsed = seconds($first_batch, $writing_ended);
# how long the other servers' clients went on writing after the kill (the kill came while they wrote)
my ($others_ended) = sort { $b <=> $a } map { $writer{$_}{finished} } grep { $_ != $victim } @nodes;
note('PostgreSQL ' . $node{1}->safe_psql('postgres', 'SHOW server_version')
	  . ": $acked rows acknowledged ($rows per server, batches of $batch) in $elapsed s: "
	  . int($acked / $elapsed) . " rows/s; server $victim down " . seconds($killed_at, $restarted_at)
	  . ' s, the others writing for ' . seconds($killed_at, $others_ended) . ' s after the kill; rows per server '
	  . "$found{1}, $found{2}, $found{3} (" . ($found{1} - $acked) . ' committed but unacknowledged); '
	  . 'replication lag ' . seconds($writing_ended, $converged_at) . ' s; ' . seconds($started, time) . ' s in all');

done_testing();
