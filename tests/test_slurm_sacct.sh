#!/bin/sh
# Issue 78 points 5 and 6: each job's uncore summary in Slurm's own accounting.  A real Slurm (slurmctld,
# slurmd, slurmdbd over a real MariaDB), all started here on loopback in the test's directory and stopped at
# its end (also on failure), with doc/jobs.md's lines (the package's Prolog and Epilog, PrologFlags=Alloc),
# proctrack/cgroup, task/cgroup, cons_tres, GRES GPUs over fake device nodes (195:N, as /dev/nvidiaN) that the
# simulated node has (the simulator's GPUs of minors 0-2), and three jobs at once: one GPU, two GPUs (the
# pair behind one PCIe switch), none, one of them sharing a CPU (OverSubscribe=FORCE).  Each ended job's
# `sacct -o AdminComment` is an uncore1: record (written by the epilog through sacctmgr) that `uncore job
# report --sacct` decodes, equal to the simulator's truth (the profile's rates over the window the record
# says it counted).
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
B=$(cd "$B" && pwd)
UNCORE=$B/uncore
JOBSCRIPT=$B/slurm/intel-uncore-job
for d in slurmctld slurmd slurmdbd sacctmgr sacct sbatch squeue scancel sinfo scontrol mariadbd mariadb-install-db mariadb-admin mariadb; do
	command -v $d >/dev/null 2>&1 && continue
	echo "SKIP: $d is not installed (scripts/install-deps installs slurmctld, slurmd, slurmdbd, slurm-client and mariadb-server)"
	exit 77
done
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: slurmd must run as root to start jobs (and to mknod the fake GPUs); run as root"
	exit 77
fi
if [ "$(nproc --all)" -lt 2 ]; then
	echo "SKIP: a node of two simulated sockets needs 2 CPUs, this machine has $(nproc --all)"
	exit 77
fi
if [ "$(stat -fc %T /sys/fs/cgroup/cpuset 2>/dev/null)" = cgroupfs ] && [ "$(stat -fc %T /sys/fs/cgroup/freezer 2>/dev/null)" = cgroupfs ]; then
	cgplugin=cgroup/v1
elif [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
	cgplugin=cgroup/v2
else
	echo "SKIP: no cgroup v1 cpuset and freezer hierarchies, nor a pure cgroup2 mount: Slurm's cgroup plugins cannot run here"
	exit 77
fi
. "$(dirname "$0")/slurm_fixture.sh" # the lock, port, slurm.conf, the daemons, diag, checkd, cg_clean
D=$W node=iusa$$ half=$(($(nproc --all) / 2))
SP=$D/spool/jobs
mkdir -p "$D/log" "$D/out" "$D/state" "$D/slurmd" "$D/dev" "$SP" "$D/root/run/intel-uncore/jobs"
chmod 755 "$D" "$D/spool" "$SP" "$D/root" "$D/root/run" "$D/root/run/intel-uncore" "$D/root/run/intel-uncore/jobs"
# the library reads Slurm's cgroups below UNCORE_SYSROOT: the real ones, beside the test's own spool
ln -s /sys "$D/root/sys"
db_pid= dbd_pid= ctld_pid= slurmd_pid=
cgroots=$(if [ $cgplugin = cgroup/v1 ]; then for c in /sys/fs/cgroup/*/; do printf '%sslurm_%s ' "$c" "$node"; done
	else echo "/sys/fs/cgroup/system.slice/${node}_slurmstepd.scope"; fi)
stop() {
	daemons="$slurmd_pid $ctld_pid $dbd_pid $db_pid"
	stop_daemons
	for f in "$SP"/*.pid; do [ -f "$f" ] && kill "$(head -n 1 "$f" | cut -d" " -f1)" 2>/dev/null; done
	cg_clean
	rm -rf "$W"
}
trap stop EXIT

# --- MariaDB, its own data directory, on loopback only; no grant tables (nobody else reaches it)
dbport=$(port) dbdport=$(port)
mariadb-install-db --no-defaults --user=root --datadir="$D/db" --skip-test-db >"$D/log/db-install.log" 2>&1
mariadbd --no-defaults --user=root --datadir="$D/db" --socket="$D/db.sock" --port="$dbport" --bind-address=127.0.0.1 \
	--skip-grant-tables --pid-file="$D/db.pid" --log-error="$D/log/mariadb.err" --innodb-buffer-pool-size=16M >/dev/null 2>&1 &
db_pid=$!
for _ in $(seq 300); do # wait for a state: the server answers (at most 60 s)
	mariadb-admin --no-defaults -S "$D/db.sock" ping >/dev/null 2>&1 && break
	kill -0 $db_pid 2>/dev/null || break
	sleep 0.2
done
checkd "MariaDB runs on 127.0.0.1:$dbport" 'mariadb-admin --no-defaults -S "$D/db.sock" ping >/dev/null 2>&1'
# slurmdbd's database made beforehand, as a site's set-up does: where it is missing, slurmdbd makes it and connects
# again on the same handle, and Debian 13's libmariadb (1:11.8.9) then fails every query with a result ("5027
# Number of columns in result (=1) set execeeds maxmimum allowed number of columns (=0)"; slurmdbd 24.11.5 stops
# at its first, `select @var := concat('')`): a connect to a missing database, then the same handle again, is enough
acct_db=iu_acct_$$ # slurmdbd.conf's StorageLoc
mariadb --no-defaults -S "$D/db.sock" -e "create database $acct_db" >"$D/log/db-create.log" 2>&1
rc=$?
checkd "slurmdbd's database made ($acct_db, rc $rc)" '[ $rc -eq 0 ]'

# --- Slurm's configuration: slurmdbd.conf, gres.conf and cgroup.conf beside slurm.conf (SLURM_CONF's directory)
export SLURM_CONF="$D/slurm.conf"
cat >"$D/slurmdbd.conf" <<EOF
AuthType=auth/none
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$dbdport
SlurmUser=root
PidFile=$D/dbd.pid
LogFile=$D/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$dbport
StorageUser=root
StorageLoc=$acct_db
EOF
chmod 600 "$D/slurmdbd.conf"
for i in 0 1 2; do mknod "$D/dev/nvidia$i" c 195 $i; done # as Linux's devices.txt numbers NVIDIA's GPUs
printf 'NodeName=%s Name=gpu File=%s/dev/nvidia[0-2]\n' "$node" "$D" >"$D/gres.conf"
printf 'CgroupPlugin=%s\nConstrainCores=yes\n' $cgplugin >"$D/cgroup.conf"
[ $cgplugin = cgroup/v2 ] && [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ] && echo IgnoreSystemd=yes >>"$D/cgroup.conf"
cluster=iusa accounting=accounting_storage/slurmdbd
slurm_conf "$node" proctrack/cgroup task/cgroup,task/affinity select/cons_tres "SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageHost=localhost
AccountingStoragePort=$dbdport
GresTypes=gpu
Prolog=$D/prolog
Epilog=$D/prolog
PrologFlags=Alloc" gpu:3 OverSubscribe=FORCE:2
# the simulated node: two sockets of half the CPUs, the GPU of minor 0 on socket 0's stack 1 port 0, those of
# minors 1 and 2 behind one switch on socket 1's stack 2 port 1; the truth is its profile
cat >"$D/profile" <<EOF
socket0.mem_read_bytes_per_s = 6.4e9
socket0.mem_write_bytes_per_s = 3.2e9
socket1.mem_read_bytes_per_s = 9.6e9
socket1.mem_write_bytes_per_s = 1.6e9
device.gpu.overhead_ratio = 0
device.card0.in_bytes_per_s = 4e9
device.card0.out_bytes_per_s = 3e9
device.card1.in_bytes_per_s = 1e9
device.card1.out_bytes_per_s = 0.5e9
device.card2.in_bytes_per_s = 2e9
device.card2.out_bytes_per_s = 1e9
EOF
sim="sim:skx,cores=$half,shared=$D/machine,profile=$D/profile,devices=gpu@0.1.0+gpusw@1.2.1"
# slurmd gives a prolog no environment: a site's /etc/default/intel-uncore, here a wrapper
cat >"$D/prolog" <<EOF
#!/bin/sh
export UNCORE_BIN='$UNCORE' UNCORE_BACKEND='$sim' UNCORE_JOB_SPOOL='$SP' UNCORE_SYSROOT='$D/root' UNCORE_JOB_WAIT=120 PATH='$PATH'
exec '$JOBSCRIPT' 2>>'$D/log/prolog.err'
EOF
chmod 755 "$D/prolog"

up=
if kill -0 $db_pid 2>/dev/null; then
	slurmdbd -D >"$D/log/slurmdbd.out" 2>&1 &
	dbd_pid=$!
	for _ in $(seq 300); do # wait for a state: slurmdbd answers (at most 60 s)
		sacctmgr -n -P show cluster >/dev/null 2>&1 && break
		kill -0 $dbd_pid 2>/dev/null || break
		sleep 0.2
	done
	sacctmgr -i add cluster iusa >/dev/null 2>&1
	# no cluster without slurmdbd: its slurmctld answers slowly, each sinfo below waiting on it (a failed slurmdbd
	# on Debian 13 made the minute's loop ten)
	if checkd "slurmdbd runs over MariaDB (cluster iusa registered)" 'sacctmgr -n -P show cluster format=cluster 2>/dev/null | grep -qx iusa'; then
		start_slurm "$node" && up=1
	fi
fi
checkd "slurmctld and slurmd ($cgplugin, GRES gpu:3 over $D/dev/nvidia[0-2]) with accounting: the node is idle" '[ -n "$up" ]'
state() { squeue -h -j "$1" -o %T 2>/dev/null; }
field() { sed -n "s/^ *\"$1\": \([^,]*\),*$/\1/p" "$2" | sed -n "${3:-1}p"; }

if [ -n "$up" ]; then
	# three jobs at once: one GPU, two GPUs, none; each prints its CPUs and GPUs, waits until the spool says it
	# is counted, runs until told to end
	body="grep Cpus_allowed_list: /proc/self/status; echo gpus=\$SLURM_JOB_GPUS
		for i in \$(seq 300); do grep -qs '^counting since' '$SP/'\$SLURM_JOB_ID.pid && break; sleep 0.2; done
		echo counted-seen; for i in \$(seq 1500); do [ -e '$D/end' ] && break; sleep 0.2; done"
	j1=$(sbatch --parsable -n 1 -c $half --gres=gpu:1 -o "$D/out/%j" --wrap "$body")
	j2=$(sbatch --parsable -n 1 -c $half --gres=gpu:2 -o "$D/out/%j" --wrap "$body")
	j3=$(sbatch --parsable -n 1 -c $half -o "$D/out/%j" --wrap "$body")
	for _ in $(seq 300); do # wait for a state: all three running and counted
		n=0
		for id in $j1 $j2 $j3; do [ "$(state "$id")" = RUNNING ] && grep -qs counted-seen "$D/out/$id" && n=$((n + 1)); done
		[ $n -eq 3 ] && break
		sleep 0.2
	done
	checkd "jobs $j1 (1 GPU), $j2 (2 GPUs), $j3 (none) run at once, each counted" '[ $n -eq 3 ]'
	cpus=$(for id in $j1 $j2 $j3; do sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$D/out/$id"; done)
	check "two of them share CPUs, as OverSubscribe=FORCE gave them ($(echo $cpus))" \
		'[ "$(echo "$cpus" | sort -u | wc -l)" -lt 3 ]'
	sleep 1
	touch "$D/end"
	for _ in $(seq 600); do # wait for a state: every job gone and its epilog done (at most 120 s)
		n=0
		for id in $j1 $j2 $j3; do [ -z "$(state "$id")" ] && [ -f "$SP/$id.json" ] && [ ! -e "$SP/$id.pid" ] && n=$((n + 1)); done
		[ $n -eq 3 ] && break
		sleep 0.2
	done
	checkd "the three jobs ended, each with its summary" '[ $n -eq 3 ]'
	# each job's AdminComment in slurmdbd (the job's end reaches it a moment after the epilog)
	for id in $j1 $j2 $j3; do
		for _ in $(seq 150); do
			sacct -n -P -X -j "$id" -o AdminComment 2>/dev/null | grep -q '^uncore1:' && break
			sleep 0.2
		done
	done
	g0=$(UNCORE_SYSROOT=$D/root "$UNCORE" --backend "$sim" devices | awk '$2 == "10de:2330" { print $1 }' | sed -n 1p)
	for id in $j1 $j2 $j3; do
		rec=$(sacct -n -P -X -j "$id" -o AdminComment 2>&1)
		checkd "job $id: sacct -o AdminComment is an uncore1: record ($(echo "$rec" | head -c 200)...)" \
			'echo "$rec" | grep -q "^uncore1:d6fqq[a-z2-7]*=*$"'
		out=$("$UNCORE" job report --sacct "$id" 2>&1)
		echo "$out"
		first=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' "$D/out/$id")
		sk=$((first / half)) gpus=$(sed -n 's/^gpus=//p' "$D/out/$id")
		secs=$(echo "$out" | sed -n 's/^job .* counted \([0-9.]*\) s from.*/\1/p')
		rd=$(echo "$out" | awk '/^socket/ { s = 1 } s && $1 == "read_bytes" { print $2; exit }')
		wr=$(echo "$out" | awk '/^socket/ { s = 1 } s && $1 == "write_bytes" { print $2; exit }')
		rr=$([ $sk = 0 ] && echo 6.4e9 || echo 9.6e9) wrr=$([ $sk = 0 ] && echo 3.2e9 || echo 1.6e9)
		check "job $id: report --sacct decodes socket $sk alone, read $rd B, written $wr B in $secs s: $rr and $wrr B/s within 0.1 %" \
			'[ "$(echo "$out" | grep -c "^socket ")" = 1 ] && echo "$out" | grep -q "^socket $sk$" &&
			awk -v r="$rd" -v w="$wr" -v s="$secs" -v R="$rr" -v X="$wrr" "BEGIN {
				a = r / s / R; b = w / s / X; exit !(s > 0 && a > 0.999 && a < 1.001 && b > 0.999 && b < 1.001) }"'
		check "job $id: the record's bytes are the node's summary's" \
			'[ "$rd" = "$(printf "%.0f" "$(field read_bytes "$SP/$id.json")")" ]'
		check "job $id: DRAM and package joules in the record" \
			'echo "$out" | grep -Eq "^  energy_dram_joules +[0-9.]+ J$" && echo "$out" | grep -Eq "^  energy_pkg_joules +[0-9.]+ J$"'
		# its devices: Slurm's indexes (SLURM_JOB_GPUS) as the node's GPUs of those minors, and their group's bytes
		dw=$(echo "$out" | awk '/^devices/ { s = 1 } s && $1 == "write_bytes" { print $2; exit }')
		dr=$(echo "$out" | awk '/^devices/ { s = 1 } s && $1 == "read_bytes" { print $2; exit }')
		case $gpus in
		'') check "job $id: no GPU given, no devices in its record" '! echo "$out" | grep -q "^devices"' ;;
		0) check "job $id: GPU 0 given, its record holds $g0's group: written $dw B and read $dr B, 4e9 and 3e9 B/s within 1 %" \
			'echo "$out" | grep -q "^devices \[\"$g0\"\] (socket 0)$" && awk -v w="$dw" -v r="$dr" -v s="$secs" "BEGIN {
				a = w / s / 4e9; b = r / s / 3e9; exit !(a > 0.99 && a < 1.01 && b > 0.99 && b < 1.01) }"' ;;
		*) check "job $id: GPUs $gpus given, its record holds the switch's two: written $dw B and read $dr B, 3e9 and 1.5e9 B/s within 1 %" \
			'echo "$out" | grep -q "^devices \[\"[0-9a-f:.]*\",\"[0-9a-f:.]*\"\] (socket 1)$" && awk -v w="$dw" -v r="$dr" -v s="$secs" "BEGIN {
				a = w / s / 3e9; b = r / s / 1.5e9; exit !(a > 0.99 && a < 1.01 && b > 0.99 && b < 1.01) }"' ;;
		esac
	done
	# the two jobs sharing CPUs (so a socket): whichever was counted second names the other in its summary's
	# warnings (the first saw no other job on its socket then), and its record counts the warning
	set -- $(for id in $j1 $j2 $j3; do echo "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$D/out/$id") $id"; done |
		sort | awk '{ if (NR > 1 && $1 == c) print p, $2; c = $1; p = $2 }')
	a=$1 b=$2 x=
	grep -qs "socket [0-9]* is shared with job $b " "$SP/$a.json" && x=$a
	grep -qs "socket [0-9]* is shared with job $a " "$SP/$b.json" && x=$b
	check "jobs $a and $b share CPUs: the summary of job ${x:-(none)} says its socket is shared with the other" '[ -n "$x" ]'
	check "... and its record in sacct counts the warning" '"$UNCORE" job report --sacct "$x" 2>&1 | grep -q "^warnings [1-9]"'
	check "the GPUs Slurm gave: 0 to job $j1, 1-2 to job $j2 ($(sed -n 's/^gpus=//p' "$D/out/$j1") and $(sed -n 's/^gpus=//p' "$D/out/$j2"))" \
		'[ "$(sed -n "s/^gpus=//p" "$D/out/$j1")" = 0 ] && [ "$(sed -n "s/^gpus=//p" "$D/out/$j2")" = 1,2 ]'
	out=$("$UNCORE" job report --sacct 99999 2>&1); rc=$?
	check "report --sacct of a job accounting has not: said so ($rc: $out)" \
		'[ $rc -eq 1 ] && echo "$out" | grep -q "job 99999 has no AdminComment in Slurm.s accounting"'
	mkdir -p "$D/nobin" # a PATH of every command here but sacct
	find /usr/bin/ /bin/ -maxdepth 1 ! -type d ! -name sacct -exec ln -sf -t "$D/nobin/" {} + 2>/dev/null # (one ln for thousands)
	out=$(PATH=$D/nobin "$UNCORE" job report --sacct "$j1" 2>&1); rc=$?
	check "report --sacct without sacct: said so ($rc: $out)" '[ $rc -eq 1 ] && echo "$out" | grep -q "sacct is not installed"'
	check "the prolog and epilog said nothing wrong$(head -c 300 "$D/log/prolog.err" 2>/dev/null)" \
		'! grep -v "^uncore job: job [0-9]*: \(not on this node yet .*\|summary in .*\|socket [0-9] is shared with job [0-9]* .*\)$" "$D/log/prolog.err"'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
