# The short-URL service's hit counts (examples/hit_count.sql) with follows of one code at once: a follow never waits
# for another that holds the code's shared row, and the count read at any moment, a fold in flight included, is
# exactly the follows committed.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $examples = "$ENV{IDCODEC_ROOT}/examples";
my $node = PostgreSQL::Test::Cluster->new('shorturl');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idcodec');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
	'-f', "$examples/shorturl.sql" ], 'examples/shorturl.sql runs');

my $code = 'GgalHkii';    # examples/shorturl.sql shortens the seed's URL to it
my $count = "SELECT shorturl.hits_of('url_code', '$code')";
my $rows = "SELECT count(*) FROM shorturl.hit_count WHERE code = '$code' AND counted = 'url_code'";
my $before = $node->safe_psql('postgres', $count);

# A holds the code's shared row: a follow in a transaction not yet committed
my $a = $node->background_psql('postgres');
$a->query_safe("BEGIN; SELECT shorturl.resolve('$code');");

# B follows three times meanwhile, each its own transaction, and must not wait for A (a lock wait would outlast the
# statement timeout)
my $b = $node->background_psql('postgres');
$b->query_safe("SET statement_timeout = '5s'");
$b->query_safe("SELECT shorturl.resolve('$code')") for 1 .. 3;
pass('three follows while another transaction holds the shared row: none waited');
is($node->safe_psql('postgres', "$count - $before"), '3', 'the count read meanwhile: the three committed, not A\'s');
is($node->safe_psql('postgres', $rows), '4', "... in the shared row and a row of each of B's transactions");

# C takes the shared row after A: its follow folds B's rows in, and until it commits a reader sees the rows before
$a->query_safe('COMMIT');
is($node->safe_psql('postgres', "$count - $before"), '4', "A committed: its hit counted");
my $c = $node->background_psql('postgres');
$c->query_safe("BEGIN; SELECT shorturl.resolve('$code');");
is($c->query_safe("$count - $before"), '5', 'inside the folding transaction: every hit, its own included');
is($c->query_safe($rows), '1', '... in the shared row alone');
is($node->safe_psql('postgres', "$count - $before"), '4', 'read by another session during the fold: the 4 committed');
is($node->safe_psql('postgres', $rows), '4', '... from the rows before the fold');
# the fold committed, B follows again: the shared row is free, and the count goes on from the folded one
$c->query_safe('COMMIT');
$b->query_safe("SELECT shorturl.resolve('$code')");
is($node->safe_psql('postgres', "$count - $before"), '6', 'after the fold: every committed follow, once');
$_->quit for $a, $b, $c;

# A crash loses no committed follow
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', "$count - $before"), '6', 'after a crash and recovery: the same count');

done_testing();
