# Sourced by the exporter's tests: start() runs $EXP with "$@" on a free loopback port, its log in $W/exp.log,
# its pid in $exp_pid and the port it took in $PORT; it waits while the exporter lives, up to 2 minutes (a
# sanitizer build opening a shared simulated machine on 2 loaded cores took over the 20 s this once allowed, and
# every scrape then went to an empty PORT, refused).  Returns 1, the log shown, where it never said its port.
start() {
	: >"$W/exp.log" # emptied here: the background job's redirection may come after the first look below
	"$EXP" --listen 127.0.0.1:0 "$@" 2>"$W/exp.log" &
	exp_pid=$!
	PORT=
	for _ in $(seq 1200); do
		PORT=$(sed -n 's/.* on port \([0-9]*\), read every.*/\1/p' "$W/exp.log")
		[ -n "$PORT" ] && return 0
		kill -0 $exp_pid 2>/dev/null || break
		sleep 0.1
	done
	cat "$W/exp.log"
	return 1
}
# log_says FILE PATTERN PID: 0 once FILE has a line matching PATTERN, waiting while PID lives, up to 2 minutes
# as start() does; 1 when PID has ended or the time is up
log_says() {
	for _ in $(seq 1200); do
		grep -q "$2" "$1" && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
