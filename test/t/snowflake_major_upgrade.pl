# A major upgrade by logical replication, from Debian's PostgreSQL 15 to the newest stock major (18), of tables keyed
# by snowflake_generate(), gen_typeid() and gen_ulid() with columns of all three kinds: the source (node 5) writes on
# while the target copies the tables and then streams the changes (binary = true: the
# ulid and typeid values travel in their binary form; the initial copy from a 15 is in text, as PostgreSQL
# documents for publishers before 16), with inserts, updates (keyed by a snowflake bigint and by a typeid) and
# deletes (keyed by a typeid). Then the cut-over: the source's writes stop, the target catches up (its slot on the
# source has confirmed the source's last WAL position), both have the same rows (digests of every column), the
# subscription goes, and the target takes over node number 5 and writes: no key repeats, every key made on 18 is
# above every key made on 15, and every key has node 5.
#
# Why the same node number cannot repeat a key: the source no longer writes; its IDs were never ahead of its clock
# (an ID's millisecond is never after the clock reading of the process that made it), so every ID it made has a
# millisecond at or before the moment its writes stopped; the target's server makes no ID below its clock + 100 ms
# at its first snowflake_generate() (the start of a server's life: here the first call after the cut-over), which
# comes after that moment. So with the two clocks within 100 ms of each other (here one clock), the target's first
# ID is above the source's last. Both halves are checked: the source's greatest ID against its clock at the stop,
# the target's first ID against its clock before the call.
#
# Two installations, idcodec installed into both: the target's is PG_BIN's (whose Perl modules run this), the
# source's bin directory is IDCODEC_UPGRADE_FROM_BIN (its node made with the framework's install_path); without it, or
# when PG_BIN's major is not above it, the suite skips. For example:
#   IDCODEC_PREPARED=1 PG_BIN=/var/cache/idcodec/postgresql-18.6/bin \
#   IDCODEC_UPGRADE_FROM_BIN=/var/cache/idcodec/install-15-XXXXXXXX/usr/lib/postgresql/15/bin \
#     prove -v --exec 'bash test/t/run.sh' test/t/snowflake_major_upgrade.pl
# The writers: test/t/lib/IdcodecWriter.pm.
use strict;
use warnings;
use lib "$ENV{IDCODEC_ROOT}/test/t/lib";
use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use IdcodecWriter;

my $old_bin = $ENV{IDCODEC_UPGRADE_FROM_BIN} // '';
plan skip_all => 'no installation to upgrade from: IDCODEC_UPGRADE_FROM_BIN names its bin directory' if $old_bin eq '';
my ($old_major) = `$old_bin/pg_config --version` =~ /PostgreSQL (\d+)/;
my ($new_major) = `pg_config --version` =~ /PostgreSQL (\d+)/;
plan skip_all => "PG_BIN's PostgreSQL $new_major is not a major above $old_bin\'s ($old_major)"
  unless $old_major && $new_major > $old_major;
my $started = time;

my $node = 5;
my $initial = 50000;    # rows on the source before the subscription (the initial copy)
my $streamed = 5000;    # rows the source writes at least after the copy (the streaming), before the cut-over
my $rows_18 = 10000;    # rows the target writes after the cut-over
my $batch = 50;

# (not allows_streaming: the newest module's settings for it include some an older server does not know)
my $src = PostgreSQL::Test::Cluster->new('src', install_path => dirname($old_bin));
$src->init;
$src->append_conf('postgresql.conf', "wal_level = logical\nmax_wal_senders = 10\nmax_replication_slots = 10");
$src->start;
my $dst = PostgreSQL::Test::Cluster->new('dst');
$dst->init;
$dst->start;
# LOAD first, so that ALTER SYSTEM knows the setting and checks the value; then until a new session has it
sub take_node_number
{
	my ($cluster, $sql) = @_;
	$cluster->safe_psql('postgres',
		"$sql; LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = $node; SELECT pg_reload_conf();");
	$cluster->poll_query_until('postgres', "SELECT current_setting('idcodec.node_id', true) = '$node'")
	  or die $cluster->name . ' did not read idcodec.node_id';
	return;
}
take_node_number($src, 'CREATE EXTENSION idcodec');
# The tables, made alike on both (the target's schema is not pg_dump's: Debian's 15.20 records a pg_attver option on
# every column, which the stock 18.6 rejects, see docs/upgrading.md; logical replication does not mind it)
my $schema = q{
CREATE TABLE item (
    id bigint DEFAULT snowflake_generate() PRIMARY KEY,
    u ulid NOT NULL DEFAULT gen_ulid() UNIQUE,
    t typeid NOT NULL DEFAULT gen_typeid('item') UNIQUE,
    phase text NOT NULL,
    n int NOT NULL
);
CREATE TABLE event (
    id typeid DEFAULT gen_typeid('event') PRIMARY KEY,
    item bigint NOT NULL,
    at ulid NOT NULL DEFAULT gen_ulid()
);
CREATE INDEX ON item (phase, n);
CREATE INDEX ON event (item);};
$dst->safe_psql('postgres', "CREATE EXTENSION idcodec; $schema");
$src->safe_psql('postgres', "$schema CREATE PUBLICATION upgrade FOR TABLE item, event;
    WITH i AS (INSERT INTO item (phase, n) SELECT 'initial', g FROM generate_series(1, $initial) g RETURNING id)
    INSERT INTO event (item) SELECT id FROM i");

# ---- the source writes: each batch (one statement) inserts items and their events, and on the batch before it
# updates items (keyed by bigint), updates events (keyed by typeid: a new ulid) and deletes events (keyed by typeid)
sub writer
{
	my ($cluster, $phase, $rows) = @_;
	return IdcodecWriter->new(
		node => $cluster,
		name => "w$phase",
		rows => $rows,
		batch => $batch,
		sql => sub {
			my ($from, $to) = @_;
			my $prev = "phase = '$phase' AND n BETWEEN " . ($from - $batch) . ' AND ' . ($from - 1);
			return "WITH i AS (INSERT INTO item (phase, n) SELECT '$phase', g FROM generate_series($from, $to) g
                         RETURNING id),
              e AS (INSERT INTO event (item) SELECT id FROM i),
              u AS (UPDATE item SET n = -n WHERE $prev AND n % 10 = 0),
              v AS (UPDATE event SET at = gen_ulid() WHERE item IN (SELECT id FROM item WHERE $prev AND n % 10 = 3)),
              d AS (DELETE FROM event WHERE item IN (SELECT id FROM item WHERE $prev AND n % 10 = 7))
         SELECT id FROM i";
		});
}
my $w15 = writer($src, 15, 1000000000);
ok(IdcodecWriter::drive([$w15], until => sub { $w15->{done} > 0 }), 'the first batch on 15 acknowledged');

# ---- the subscription: the initial copy while the source writes, then the streaming
$dst->safe_psql('postgres', "SET client_min_messages = warning; CREATE SUBSCRIPTION upgrade
        CONNECTION '" . $src->connstr . " dbname=postgres' PUBLICATION upgrade WITH (binary = true)");
my $subscribed_at = time;
my $written_at_subscription = $w15->{done};
ok( IdcodecWriter::drive(
		[$w15],
		until => sub {
			$dst->safe_psql('postgres', "SELECT count(*) FILTER (WHERE srsubstate = 'r') FROM pg_subscription_rel") eq
			  '2';
		}),
	'the initial copy of both tables ended while 15 wrote');
my $copied_at = time;
my $written_at_copy = $w15->{done};
ok( IdcodecWriter::drive([$w15], until => sub { $w15->{done} >= $written_at_copy + $streamed }),
	"$streamed more rows on 15 after the copy");

# ---- the cut-over: the writes on 15 stop; the target has caught up when its slot on the source has confirmed the
# source's WAL position after the last write
$w15->stop;
IdcodecWriter::drive([$w15]);
ok($w15->{state} eq 'ended', 'the writer on 15 stopped, having written without an error')
  or diag($w15->{error});
my ($stop_lsn, $stop_ms) = split /\|/, $src->safe_psql('postgres',
	'SELECT pg_current_wal_lsn(), floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint');
my $stopped_at = time;
ok( $src->poll_query_until('postgres',
		"SELECT confirmed_flush_lsn >= '$stop_lsn' FROM pg_replication_slots WHERE slot_name = 'upgrade'"),
	"the target confirmed the source's WAL position at the stop ($stop_lsn)");
my $caught_up_at = time;
my $digests = q{SELECT (SELECT count(*) || ' ' || md5(string_agg(concat_ws(' ', id, u, t, phase, n), E'\n' ORDER BY id))
                 FROM item WHERE phase <> '18'),
                (SELECT count(*) || ' ' || md5(string_agg(concat_ws(' ', id, item, at), E'\n' ORDER BY id)) FROM event
                 WHERE item NOT IN (SELECT id FROM item WHERE phase = '18'))};
my $source_digests = $src->safe_psql('postgres', $digests);
my ($source_max, $source_max_ms, $written_15) = split /\|/, $src->safe_psql('postgres', q{
    SELECT max(id), (extract(epoch FROM snowflake_timestamp(max(id))) * 1000)::bigint,
           count(*) FILTER (WHERE phase = '15')
    FROM item});
is( $dst->safe_psql('postgres', $digests),
	$source_digests,
	'at the cut-over the target ('
	  . $dst->safe_psql('postgres', 'SHOW server_version')
	  . ") has the source's ("
	  . $src->safe_psql('postgres', 'SHOW server_version')
	  . ') rows, items and events, every column (count and md5: ' . join(', ', split /\|/, $source_digests) . ')');
is( $source_max_ms <= $stop_ms ? 'not after' : ($source_max_ms - $stop_ms) . ' ms after',
	'not after',
	"the source's IDs were never ahead of its clock: its greatest ID's millisecond is not after its clock when its "
	  . 'writes stopped (' . ($stop_ms - $source_max_ms) . ' ms before)');

# ---- the target takes over: the subscription goes (and its slot on the source), node 5 is the target's now
take_node_number($dst, 'SET client_min_messages = warning; DROP SUBSCRIPTION upgrade');
# the target's first ID, with its clock read just before (a select list is evaluated in order; the subquery, volatile,
# is not flattened)
my ($before_ms, $first_id, $first_ms) = split /\|/, $dst->safe_psql('postgres', q{
    SELECT floor(extract(epoch FROM c) * 1000)::bigint, id, (extract(epoch FROM snowflake_timestamp(id)) * 1000)::bigint
    FROM (SELECT clock_timestamp() AS c, snowflake_generate() AS id) s});
is( $first_ms >= $before_ms + 100 ? 'yes' : 'only ' . ($first_ms - $before_ms) . ' ms',
	'yes',
	"the target's first ID is at least 100 ms after its clock before the call (" . ($first_ms - $before_ms)
	  . ' ms after), so above the source\'s IDs');

# ---- the target writes, with node 5
my $w18 = writer($dst, 18, $rows_18);
IdcodecWriter::drive([$w18]);
ok($w18->{state} eq 'ended' && $w18->{done} == $rows_18, "the writer on 18 wrote its $rows_18 rows without an error")
  or diag($w18->{error});
my @keys15 = split /\n/, $src->safe_psql('postgres', 'SELECT id FROM item');
my %count;
$count{$_}++ for @{ $w18->{keys} }, @keys15;
is(scalar(@{ $w18->{keys} }) . ' ' . scalar(grep { $_ > 1 } values %count),
	"$rows_18 0",
	"the target wrote $rows_18 rows, their keys none of the source's " . scalar(@keys15) . ' and none twice');
my ($min_18, $max_not_18, $above, $all, $distinct, $wrong_node) = split /\|/, $dst->safe_psql('postgres', qq{
    SELECT min(id) FILTER (WHERE phase = '18'), max(id) FILTER (WHERE phase <> '18'),
           min(id) FILTER (WHERE phase = '18') > max(id) FILTER (WHERE phase <> '18') AND $first_id > $source_max,
           count(*), count(DISTINCT id), count(*) FILTER (WHERE snowflake_node(id) <> $node)
    FROM item});
is( ($above eq 't' ? 'above' : 'not above') . " $distinct $wrong_node",
	"above $all 0",
	"every key made on 18 is above every key made on 15 (the least $min_18, the greatest before $max_not_18), the "
	  . "first ID too; all $all keys distinct and of node $node");
is( $dst->safe_psql('postgres', $digests) . ' '
	  . $dst->safe_psql('postgres', "SELECT count(*) FROM item WHERE phase = '18'"),
	"$source_digests $rows_18",
	"the source's rows are on the target as at the cut-over, besides the target's $rows_18");

# no error in either server's log
is(join("\n", grep { /(ERROR|PANIC):/ } map { split /\n/, slurp_file($_->logfile) } $src, $dst),
	'', "no error in the servers' logs");

sub seconds { return sprintf('%.2f', $_[1] - $_[0]); }
sub rate { return int($_[0] / $_[1]); }
my $w15_time = seconds($w15->{started}, $w15->{finished});
my $w18_time = seconds($w18->{started}, $w18->{finished});
note('PostgreSQL ' . $src->safe_psql('postgres', 'SHOW server_version') . ' -> '
	  . $dst->safe_psql('postgres', 'SHOW server_version')
	  . " by logical replication: $initial rows before the subscription; on 15 $written_15 rows written in "
	  . "$w15_time s (" . rate($written_15, $w15_time) . " rows/s), $written_at_subscription before the subscription, "
	  . ($written_at_copy - $written_at_subscription) . ' during the initial copy ('
	  . seconds($subscribed_at, $copied_at) . ' s), ' . ($written_15 - $written_at_copy)
	  . ' streamed after it; caught up ' . seconds($stopped_at, $caught_up_at)
	  . " s after the writes stopped; on 18 $rows_18 rows in $w18_time s ("
	  . rate($rows_18, $w18_time) . ' rows/s); ' . seconds($started, time) . ' s in all');

done_testing();
