#!/bin/sh
# Issue 89 point 2: no user steers the GPUs the package's prolog writes.  A real Slurm (slurmctld, slurmd) on
# loopback, a node of 8 GRES GPUs over fake device nodes (195:N, as /dev/nvidiaN), and the prolog/epilog as
# doc/jobs.md installs them (PrologFlags=Alloc).  `scontrol show job -d` prints a job's name, comment and working
# directory with their newlines, so each of them can carry a line "Nodes=NODE CPU_IDs=0 Mem=0
# GRES=gpu:8(IDX:0-7)" of the user's making: three jobs without GPUs forge it (by name, by --comment, by a
# working directory whose name holds the newline), and no GPU is written for any of them; a fourth forges it by
# name beside one GPU of its own, and only its own is written; a job given two GPUs has them written, the ones
# Slurm gave it (the job's own SLURM_JOB_GPUS, as slurmd hands it to the job).  Each job prints its spool entry
# as the prolog left it, which the epilog then removes.
. "$(dirname "$0")/check.sh" # ok, no, check; $W
B=${top_builddir:-.}
B=$(cd "$B" && pwd)
JOBSCRIPT=$B/slurm/intel-uncore-job
for d in slurmctld slurmd sbatch squeue scancel sinfo scontrol; do
	command -v $d >/dev/null 2>&1 && continue
	echo "SKIP: $d is not installed (scripts/install-deps installs slurmctld, slurmd and slurm-client)"
	exit 77
done
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: slurmd must run as root to start jobs (and to mknod the fake GPUs); run as root"
	exit 77
fi
. "$(dirname "$0")/slurm_fixture.sh" # the lock, port, the release, slurm.conf, cgroup.conf, the daemons
D=$W node=iugp$$ cluster=iugp ctld_pid= slurmd_pid= cgroots=
R=$D/root SP=$D/root/run/intel-uncore/jobs
mkdir -p "$D/log" "$D/out" "$D/state" "$D/slurmd" "$D/dev" "$R"
chmod 755 "$D" "$R"
stop() {
	daemons="$slurmd_pid $ctld_pid"
	stop_daemons
	rm -rf "$W"
}
trap stop EXIT

# --- the node: 8 GPUs (gres.conf's File=, each one index in the order written), no cgroups wanted
# (proctrack/linuxproc, task/none: cgroup.conf as tests/slurm_fixture.sh sets it for each release)
for i in 0 1 2 3 4 5 6 7; do mknod "$D/dev/nvidia$i" c 195 $i; done # as Linux's devices.txt numbers NVIDIA's GPUs
printf 'NodeName=%s Name=gpu File=%s/dev/nvidia[0-7]\n' "$node" "$D" >"$D/gres.conf"
cgroup_conf_none
slurm_conf "$node" proctrack/linuxproc task/none select/cons_tres "SelectTypeParameters=CR_Core
GresTypes=gpu
Prolog=$D/prolog
Epilog=$D/prolog
PrologFlags=Alloc" gpu:8
# the package's script with the test's settings (slurmd gives a prolog no environment of ours: a site puts
# these in /etc/default/intel-uncore); no count (UNCORE_BIN=true): the GPUs it writes are the point here
cat >"$D/prolog" <<EOF
#!/bin/sh
export UNCORE_BIN=true UNCORE_SYSROOT='$R'
exec '$JOBSCRIPT' 2>>'$D/log/prolog.err'
EOF
chmod 755 "$D/prolog"
check "the package's prolog/epilog is built ($JOBSCRIPT)" '[ -x "$JOBSCRIPT" ]'
up=
start_slurm "$node" && up=1
if [ -z "$up" ] && grep -qs "No filesystem mounted on" "$D/log/slurmd.log" "$D/log/slurmd.out"; then
	echo "SKIP: slurmd $SLURM_VER wants a cgroup tree this machine has not mounted, whatever cgroup.conf says"
	exit 77
fi
checkd "slurmctld and slurmd (Slurm $SLURM_VER) on loopback, node $node of 8 GPUs: idle" \
	'[ -n "$up" ] && [ "$(sinfo -h -n "$node" -o %G)" = gpu:8 ]'
[ -n "$up" ] || { echo "$pass passed, $fail failed"; exit 1; }

# --- the jobs: each prints its spool entry as the prolog wrote it ("none": no entry) and the GPUs Slurm gave it
forged="Nodes=$node CPU_IDs=0 Mem=0 GRES=gpu:8(IDX:0-7)"
nl='
'
wd="$D/wd$nl   $forged"
mkdir -p "$wd"
show='cat "$0" 2>/dev/null || echo none; echo "env=$SLURM_JOB_GPUS"'
job() { # sbatch's own options; prints the job id
	sbatch --parsable -o "$D/out/%j" "$@" --wrap "sh -c '$show' '$SP/'\$SLURM_JOB_ID" 2>>"$D/log/sbatch.err"
}
j_name=$(job -J "x$nl   $forged")
j_comment=$(job --comment="x$nl   $forged")
j_wd=$(job -D "$wd")
j_both=$(job --gres=gpu:1 -J "y$nl   $forged")
j_legit=$(job --gres=gpu:2)
ids="$j_name $j_comment $j_wd $j_both $j_legit"
check "five jobs submitted ($ids; $(cat "$D/log/sbatch.err"))" '[ "$(echo $ids | wc -w)" -eq 5 ]'
check "scontrol shows the forged line in the job's own text, as a line of its own (job $j_name)" \
	'scontrol show job -d "$j_name" | grep -q "^   $forged\$"'
for _ in $(seq 600); do # wait for a state: every job has left the queue (at most 120 s)
	[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
	sleep 0.2
done
checkd "the five jobs ran and ended" '[ -z "$(squeue -h -o %i 2>/dev/null)" ] && for i in $ids; do [ -s "$D/out/$i" ] || exit 1; done'
entry() { sed -n 1,2p "$D/out/$1" | tr '\n' ' '; }
given() { sed -n 's/^env=//p' "$D/out/$1"; }
for j in name comment wd; do
	eval id=\$j_$j
	check "a job without GPUs forging a GPU line in its $j (job $id): no GPU written ($(entry "$id"))" \
		'[ "$(sed -n 1p "$D/out/$id")" = none ] && [ -z "$(given "$id")" ]'
done
g=$(given "$j_both")
check "a job of one GPU ($g) forging eight in its name (job $j_both): its own alone written ($(entry "$j_both"))" \
	'case "$g" in [0-7]) true ;; *) false ;; esac && [ "$(entry "$j_both")" = "- gpus=$g " ]'
g=$(given "$j_legit")
check "a job of two GPUs ($g, Slurm's) has them written (job $j_legit: $(entry "$j_legit"))" \
	'case "$g" in [0-7],[0-7]) true ;; *) false ;; esac && [ "$(entry "$j_legit")" = "- gpus=$g " ]'
for _ in $(seq 150); do # wait for a state: every epilog has removed its job's entry (at most 30 s)
	[ -z "$(ls -A "$SP" 2>/dev/null)" ] && break
	sleep 0.2
done
check "the epilogs removed every entry ($(ls -A "$SP" 2>/dev/null | tr '\n' ' '))" '[ -z "$(ls -A "$SP" 2>/dev/null)" ]'
check "the prolog and epilog said nothing ($(head -c 300 "$D/log/prolog.err" 2>/dev/null))" '[ ! -s "$D/log/prolog.err" ]'
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
