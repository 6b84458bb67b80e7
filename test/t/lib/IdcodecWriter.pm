# A client of the suites on PostgreSQL's TAP framework (test/t/*.pl) that writes in small batches through one psql
# session and records what the server acknowledged, while the suite kills, restarts or cuts over servers. Several
# writers run at once, in one process: drive() waits for their psql output (IPC::Run starts each psql, with pipes of
# our own, so that a psql gone with its connection is seen as the end of its output rather than a failed write).
#
#   my $w = IdcodecWriter->new(node => $node, name => 'n1', rows => 5000, batch => 50,
#       sql => sub { my ($from, $to) = @_; return 'INSERT ... RETURNING id' },  # one statement: rows FROM..TO
#       after_batch => sub { my ($w) = @_; ... });                                 # optional, after each ack
#   IdcodecWriter::drive([$w, ...], until => sub { ... })
#       runs the writers until the condition holds (checked every 0.1 s), every writer has ended (then the
#       condition decides), a writer failed, or no writer got anything for the framework's timeout; returns
#       whether the condition held
#   $w->stop    no batch after the one in flight
#   $w->{done} rows acknowledged; $w->{keys} their keys; $w->{lost} connections lost; $w->{error} why it failed;
#   $w->{started}, $w->{finished} the times of the first batch sent and the last acknowledged
#
# A batch counts only once psql has printed its result and then "done SEQ": a batch whose connection was lost on the
# way may or may not have committed, and its rows are written again. A lost connection (psql's status 2) is made
# again, for up to the framework's timeout; any other end of psql fails the writer.
package IdcodecWriter;

use strict;
use warnings;
use IO::Handle;
use IO::Select;
use IPC::Run;
use Time::HiRes qw(time);
use PostgreSQL::Test::Utils;

sub new
{
	my ($class, %params) = @_;
	my $self = bless {
		batch => 50,
		%params,
		done => 0,
		seq => 0,
		keys => [],
		lost => 0,
		state => 'down',
		retry_at => 0,
		down_since => time
	}, $class;
	$self->{err_file} = "$PostgreSQL::Test::Utils::log_path/writer_$self->{name}.err";
	return $self;
}

sub stop { $_[0]{stopping} = 1; return; }

sub ended { return $_[0]{state} eq 'ended' || $_[0]{state} eq 'failed'; }

sub _fail
{
	my ($self, $why) = @_;
	$self->{state} = 'failed';
	my $messages = -e $self->{err_file} ? PostgreSQL::Test::Utils::slurp_file($self->{err_file}) : '';
	my @last = (split /\n/, $messages)[-20 .. -1];
	$self->{error} = join("\n", $why, grep { defined } @last);
	return;
}

sub _send
{
	my ($self, $text) = @_;
	# a psql that has just died: its end of output tells
	syswrite($self->{in}, $text);
	return;
}

sub _connect
{
	my $self = shift;
	my $node = $self->{node};
	($self->{in}, $self->{out}) = (IO::Handle->new, IO::Handle->new);
	$self->{harness} = IPC::Run::start(
		[
			$node->installed_command('psql'), '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d',
			$node->connstr('postgres') . " application_name=writer-$self->{name}"
		],
		'<pipe', $self->{in}, '>pipe', $self->{out}, '2>>', $self->{err_file});
	$self->{buffer} = '';
	$self->{state} = 'connecting';
	$self->_send("SELECT 'ready';\n");
	return;
}

# the next batch, or the end of the session when every row is written or the writer was stopped
sub _next
{
	my $self = shift;
	if ($self->{done} >= $self->{rows} || $self->{stopping})
	{
		close $self->{in};
		$self->{state} = 'closing';
		return;
	}
	my $to = $self->{done} + $self->{batch};
	$to = $self->{rows} if $to > $self->{rows};
	$self->{to} = $to;
	$self->{seq}++;
	$self->{started} //= time;
	$self->{state} = 'writing';
	$self->_send($self->{sql}->($self->{done} + 1, $to) . ";\n\\echo done $self->{seq}\n");
	return;
}

# reads what psql printed; returns true when something happened (a connection made, a batch acknowledged, an end)
sub _read
{
	my $self = shift;
	my $n = sysread($self->{out}, $self->{buffer}, 65536, length $self->{buffer});
	return $self->_ended if !$n;
	if ($self->{state} eq 'connecting' && $self->{buffer} =~ /\n/)
	{
		return $self->_fail("writer $self->{name}: psql answered \"$self->{buffer}\"")
		  unless $self->{buffer} eq "ready\n";
		$self->{buffer} = '';
		$self->_next;
		return 1;
	}
	if ($self->{state} eq 'writing' && $self->{buffer} =~ /(?:\A|\n)done $self->{seq}\n\z/)
	{
		my @lines = split /\n/, $self->{buffer};
		pop @lines;
		push @{ $self->{keys} }, @lines;
		$self->{buffer} = '';
		$self->{done} = $self->{to};
		$self->{finished} = time;
		$self->{after_batch}->($self) if $self->{after_batch};
		$self->_next;
		return 1;
	}
	return 0;
}

# psql's output ended: psql ended
sub _ended
{
	my $self = shift;
	close $self->{in};
	close $self->{out};
	$self->{harness}->finish;
	my $status = $self->{harness}->result;
	if ($self->{state} eq 'closing')
	{
		return $self->{state} = 'ended' if $status == 0;
		return $self->_fail("writer $self->{name}: psql ended with status $status at the end");
	}
	return $self->_fail("writer $self->{name}: psql ended with status $status") if $status != 2;
	# the connection was lost (or could not be made): made again until the timeout
	$self->{lost}++ if $self->{state} ne 'connecting';
	$self->{down_since} = time if $self->{state} ne 'connecting';
	$self->{state} = 'down';
	$self->{retry_at} = time + 0.1;
	return 1;
}

sub drive
{
	my ($writers, %params) = @_;
	my $until = $params{until} // sub { 0 };
	my $timeout = $PostgreSQL::Test::Utils::timeout_default;
	my ($checked, $progress) = (0, time);
	while (1)
	{
		if (time - $checked >= 0.1)
		{
			return 1 if $until->();
			$checked = time;
		}
		return 0 if grep { $_->{state} eq 'failed' } @$writers;
		my @live = grep { !$_->ended } @$writers;
		return $until->() unless @live;
		if (time - $progress > $timeout)
		{
			$_->_fail("writer $_->{name}: nothing acknowledged for ${timeout}s") for @live;
			return 0;
		}
		for my $w (grep { $_->{state} eq 'down' && $_->{retry_at} <= time } @live)
		{
			if (time - $w->{down_since} > $timeout)
			{
				$w->_fail("writer $w->{name}: no connection for ${timeout}s");
				next;
			}
			$w->_connect;
		}
		my $select = IO::Select->new(map { $_->{out} } grep { $_->{state} ne 'down' && !$_->ended } @live);
		my @ready = $select->count ? $select->can_read(0.1) : do { select(undef, undef, undef, 0.1); () };
		for my $w (@live)
		{
			next unless $w->{out} && grep { $_ == $w->{out} } @ready;
			$progress = time if $w->_read;
		}
	}
}

1;
