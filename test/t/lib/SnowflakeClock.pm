# The stepped clock of the snowflake suites that steer a server's CLOCK_REALTIME (snowflake_pressure.pl,
# snowflake_clock.pl): builds snowflake_clock_shim.c (beside this file) into the suite's temporary directory, as the
# shim a server preloads and the tool that changes its control file, and keeps every change made, so that a suite
# can tell afterwards what the clock showed at any real time.
#
#   $clock->change(set => NS | step => MS, [SLOWDOWN])   changes the clock of every process at once; returns the
#                         change (base_real_ns, shown_ns, slowdown, done_real_ns). The first makes the control file.
#   $clock->change(pause => PID, MS)   holds process PID for MS ms just after its next reading of the clock, once
#   $clock->pause_taken   whether no pause is pending (the process asked for has begun it, or none was asked)
#   $clock->command(...)  the same as a shell command, for psql's \! between two statements
#   $clock->changes       every change so far, in order
#   $clock->start($node)  $node->start with the shim preloaded (the postmaster's restart after a crash keeps it);
#                         $clock->env is that environment
#   $clock->sql           SQL functions that answer from the changes once $clock->load($node) has put them in:
#                         shim_max_ms(b_us, a_us) and shim_min_ms(b_us, a_us), the greatest and the least unix
#                         millisecond the clock showed between two real times in microseconds; real_us(); unix_ms(id)
package SnowflakeClock;

use strict;
use warnings;
use File::Basename qw(dirname);
use PostgreSQL::Test::Utils;

sub new
{
	my ($class) = @_;
	# the suites run as the server's user, who may not write the checkout: the build goes to the test's directory
	my $dir = PostgreSQL::Test::Utils::tempdir();
	my $source = dirname(__FILE__) . '/snowflake_clock_shim.c';
	my $self = bless {
		shim => "$dir/snowflake_clock_shim.so",
		tool => "$dir/snowflake_clock",
		control => "$dir/snowflake_clock.control",
		changes => "$dir/changes",
	}, $class;
	my @flags = ('-O2', '-Wall', '-Wextra', '-Werror');
	system_or_bail('cc', '-shared', '-fPIC', @flags, '-o', $self->{shim}, $source, '-ldl');
	system_or_bail('cc', @flags, '-DIDCODEC_CLOCK_TOOL', '-o', $self->{tool}, $source);
	PostgreSQL::Test::Utils::append_to_file($self->{changes}, '');
	return $self;
}

sub env
{
	my ($self) = @_;
	return (LD_PRELOAD => $self->{shim}, IDCODEC_CLOCK_CONTROL => $self->{control});
}

sub start
{
	my ($self, $node) = @_;
	# only for the server's processes: the tool and this process must keep reading the real clock
	my %env = $self->env;
	local @ENV{ keys %env } = values %env;
	return $node->start;
}

sub change
{
	my ($self, @arguments) = @_;
	my $line = `$self->{tool} $self->{control} @arguments`;
	die "snowflake_clock @arguments failed" if $? != 0 || $line !~ /^-?\d+ -?\d+ \d+ \d+$/;
	PostgreSQL::Test::Utils::append_to_file($self->{changes}, $line);
	return split(' ', $line);
}

sub command
{
	my ($self, @arguments) = @_;
	return "$self->{tool} $self->{control} @arguments >>$self->{changes}";
}

sub pause_taken
{
	my ($self) = @_;
	# the control file's fifth word: the process still to pause, 0 once it has begun (see snowflake_clock_shim.c)
	open(my $file, '<', $self->{control}) or die "$self->{control}: $!";
	binmode($file);
	seek($file, 32, 0) && read($file, my $word, 8) == 8 or die "$self->{control}: cannot read the pause";
	return unpack('q', $word) == 0;
}

sub changes
{
	my ($self) = @_;
	return map { [ split ' ' ] } split(/\n/, PostgreSQL::Test::Utils::slurp_file($self->{changes}));
}

sub sql
{
	return <<'SQL';
-- the real time in microseconds since 1970, from PostgreSQL's own clock (gettimeofday, which the shim leaves alone)
CREATE FUNCTION real_us() RETURNS bigint LANGUAGE sql VOLATILE AS
$$ SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint $$;
-- a snowflake ID's unix millisecond (the pgEdge layout's time begins 2023-01-01 UTC)
CREATE FUNCTION unix_ms(id bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$ SELECT (id >> 22) + 1672531200000 $$;
-- the clock's changes and the stretch of real time each may have been read in: from its base until the next change
-- was surely seen
CREATE TABLE segs (base bigint, shown bigint, slowdown bigint, until bigint);
CREATE FUNCTION shim_max_ms(b_us bigint, a_us bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT max((shown + (least(a_us * 1000 + 999, until) - base) / slowdown) / 1000000) FROM segs
    WHERE base <= a_us * 1000 + 999 AND until >= b_us * 1000 $$;
CREATE FUNCTION shim_min_ms(b_us bigint, a_us bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
    SELECT min((shown + (greatest(b_us * 1000, base) - base) / slowdown) / 1000000) FROM segs
    WHERE base <= a_us * 1000 + 999 AND until >= b_us * 1000 $$;
SQL
}

sub load
{
	my ($self, $node) = @_;
	my @c = $self->changes;
	# each change holds until the next one was surely seen (its done_real_ns)
	my @until = ((map { $_->[3] } @c[ 1 .. $#c ]), '9000000000000000000');
	my $rows = join(', ', map { "($c[$_][0], $c[$_][1], $c[$_][2], $until[$_])" } 0 .. $#c);
	$node->safe_psql('postgres', "TRUNCATE segs; INSERT INTO segs VALUES $rows");
}

1;
