# Snowflake generation and a standby: a base backup carries the primary's idcodec.node_id (ALTER SYSTEM wrote it to
# postgresql.auto.conf) and its state file, so a hot standby must refuse to generate (25006) rather than repeat the
# primary's IDs, while the primary generates on; promoted (a failover: the primary stopped first), it generates
# with the primary's number, above every ID the primary made.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;
# LOAD first, so that ALTER SYSTEM knows the setting and checks the value; then until a new session has it (the
# reload is asynchronous)
$primary->safe_psql('postgres',
	"CREATE EXTENSION idcodec; LOAD 'idcodec'; ALTER SYSTEM SET idcodec.node_id = 21; SELECT pg_reload_conf();");
$primary->poll_query_until('postgres', "SELECT current_setting('idcodec.node_id', true) = '21'")
  or die "the primary did not read idcodec.node_id";
$primary->safe_psql('postgres', 'CREATE TABLE made (id bigint PRIMARY KEY);
	INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, 10000);');

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;
is($standby->safe_psql('postgres', 'SHOW idcodec.node_id'), '21', "the standby has the primary's node number");
# what psql prints, its output and its messages (without the "psql:<stdin>:N: " of a script read from stdin)
my ($out, $err);
$standby->psql('postgres', "\\set VERBOSITY sqlstate\nSELECT snowflake_generate();",
	stdout => \$out, stderr => \$err);
$err =~ s/^psql:[^:]*:\d+: //mg;
is(join("\n", grep { $_ ne '' } $out, $err), 'ERROR:  25006', 'a standby refuses to generate: 25006, nothing made');
$primary->safe_psql('postgres', 'INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, 10000)');
is( $primary->safe_psql('postgres',
		'SELECT count(*), count(DISTINCT id), bool_and(snowflake_node(id) = 21) FROM made'),
	'20000|20000|t',
	'the primary generates on');

# a failover: the primary goes, the standby (caught up) is promoted and generates
$primary->wait_for_catchup($standby);
my $highest = $primary->safe_psql('postgres', 'SELECT max(id) FROM made');
$primary->stop;
$standby->promote;
$standby->safe_psql('postgres', 'INSERT INTO made SELECT snowflake_generate() FROM generate_series(1, 10000)');
is( $standby->safe_psql(
		'postgres',
		"SELECT count(*), count(DISTINCT id), bool_and(snowflake_node(id) = 21),
		        min(id) FILTER (WHERE id > $highest) IS NOT NULL, count(*) FILTER (WHERE id > $highest) FROM made"),
	'30000|30000|t|t|10000',
	"promoted, it generates with the primary's number, above every ID the primary made");

done_testing();
