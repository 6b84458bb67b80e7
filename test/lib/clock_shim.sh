# Sourced by the suites that steer a server's clock with test/snowflake_clock_shim.c, after cluster.sh and with $work
# set to the suite's working directory: builds the shim (shim, for LD_PRELOAD) and its tool into $CLUSTERS and names
# the control file the servers and the tool share (control).
#
#   clock_change set|step ARG [SLOWDOWN]   changes the server's clock; each change is kept in $work/segments (the
#                                          real time it took effect, the time shown then, the slowdown, the real time
#                                          it was surely seen) to tell later what the clock showed when
shim=$CLUSTERS/snowflake_clock_shim.so
tool=$CLUSTERS/snowflake_clock
control=$CLUSTERS/snowflake_clock.control
cc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$shim" test/snowflake_clock_shim.c -ldl
cc -O2 -Wall -Wextra -Werror -DIDCODEC_CLOCK_TOOL -o "$tool" test/snowflake_clock_shim.c
chmod 755 "$shim"
clock_change() { "$tool" "$control" "$@" >>"$work/segments"; }
