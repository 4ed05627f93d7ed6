# Sourced by peer_test.sh: after a peer ran, the simulator's protocol checks judged (every refused register
# explained, every control word written while its box counted placed in the trace), and the core registers PCM reads

# Every register a peer was refused is one the simulator does not model yet, named (issue 90) or a package or
# core register outside the uncore's PMON (the microcode signature, thermal status, C-state residencies, turbo and
# RAPL limits (the platform's 0x65c too: likwid 5.4.1), which no uncore count needs: likwid 5.2.2 reads them at start, seen with D2, D5 and D9 stood in);
# and bad_accesses is their number (but for MSR 0x64d, which the simulator knows SKX lacks: common/sim/sim_rapl.c).
# (awk: a hexadecimal number's value, "0x" or not, as the counts and the trace write them)
HEX_AWK='function hex(x,  i, v) { v = 0; x = tolower(x); sub(/^0x/, "", x)
	for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return v }'
explain() { # TOOL
	awk -v tool="$1" "$HEX_AWK"'
	$1 != "refused" { next }
	{ n = $2; $1 = $2 = $3 = ""; what = $0; sub(/^ +/, "", what) }
	what ~ /^(rd|wr)msr MSR 0x(48|10a|700|702|ce|8b|1b1|3f8|3f9|3fa|60d|1a0|1ad|1b0|610|613|618|61b|61c|620|639|641|65c|64d):/ {
		split(what, w, " "); msr[w[3]] += n; refused += w[3] == "0x64d:" ? 0 : n; next }
	what ~ /^PCI read of / { next } # a function that is not there reads all ones, as on a node
	# D8, PCM 202302 on sim:spr programs what the part has not (seed 001, the guide of the family): IIO and IRP
	# stacks 10 and 11 (its SPR_M2IOSF_NUM 12; Table 1-3: IIO "up to 10 for XCC"), MSRs 0x30a0-0x30bf and
	# 0x34a0-0x34bf; and the middle one of the three channels it lays 0x4000 apart a controller (section 1.10.3:
	# two, 0x8000 apart), MEMn + 0x26800 (the MEMn of the simulator 0x80000 apart, spr_family_sim.c)
	tool ~ /sim:(spr|emr)/ && what ~ /^(rd|wr)msr MSR 0x3[04][ab][0-9a-f]:/ { stacks += n; refused += n; next }
	# PCM 202502 on Birch Stream programs 16 IIO and IRP units (src/types.h BHS_M2IOSF_NUM 16 at 0x2900 + 0x10 n,
	# BHS_IRP_UNIT_CTL 0x2A00-0x2AF0); the board has IIO PMUs 0-14, every one its srf_sad_to_pmu_id_mapping names
	# (pcm-iio-topology.cpp; platforms/gnr/board.c), so the MSRs of unit 15, 0x29F0-0x29FF and 0x2AF0-0x2AFF, are none
	tool ~ /sim:(gnr|srf)/ && what ~ /^(rd|wr)msr MSR 0x2[9a]f[0-9a-f]:/ { bhs15 += n; refused += n; next }
	# likwid 5.4.1 on the discovery parts translates of its UBox (MSR_UBOX_DEVICE) the global control and status
	# alone and every other register to MSR 0 (access_x86_translate.c access_x86_translate_read): its UBOX0 counter,
	# UNCORE_CLOCKTICKS of the CLOCK group on Granite Rapids, reads MSR 0x0 while its discovery found the UBox at 0x3FF0
	tool ~ /^likwid.*sim:(spr|emr|gnr|srf)/ && what ~ /^rdmsr MSR 0x0:/ { ubox0 += n; refused += n; next }
	tool ~ /sim:spr/ && what ~ /^MMIO (read|write) 0x/ {
		split(what, w, " "); a = hex(w[3]) % 524288
		if (a >= 157696 && a < 157952) { chan += n; refused += n; next } }
	{ other = other "; " n " x " what }
	END {
		if (stacks) printf "%s refused %d x MSR 0x30a0-0x30bf, 0x34a0-0x34bf: IIO and IRP stacks 10 and 11, which PCM 202302 programs on SPR and the part has not (D8: seed 001 Table 1-3)\n", tool, stacks
		if (bhs15) printf "%s refused %d x MSR 0x29f0-0x29ff, 0x2af0-0x2aff: IIO and IRP unit 15, which PCM 202502 programs on Birch Stream (BHS_M2IOSF_NUM 16) and the board has not (IIO PMUs 0-14, pcm srf_sad_to_pmu_id_mapping)\n", tool, bhs15
		if (ubox0) printf "%s refused %d x MSR 0x0: its UBOX0 counter, which likwid 5.4.1 translates to MSR 0 on the discovery parts (access_x86_translate_read: MSR_UBOX_DEVICE, the global registers alone)\n", tool, ubox0
		if (chan) printf "%s refused %d x MMIO MEMn + 0x26800-0x268ff: PCM 202302 channel 1 of 3 a controller, 0x4000 apart, where the part has 2, 0x8000 apart (D8: seed 001 section 1.10.3); its channel 2 is channel 1 of the part\n", tool, chan
		why["0x700:"] = "UBox global control (D2)"; why["0x702:"] = "CHA count (D3)"; why["0xce:"] = "PLATFORM_INFO (D5)"
		why["0x8b:"] = "microcode signature"; why["0x1b1:"] = "package thermal status"
		why["0x48:"] = "IA32_SPEC_CTRL"; why["0x10a:"] = "IA32_ARCH_CAPABILITIES" # (read by PCM 202502 for its speculation report)
		why["0x3f8:"] = why["0x3f9:"] = why["0x3fa:"] = why["0x60d:"] = "package C-state residency"
		why["0x1a0:"] = "IA32_MISC_ENABLE"; why["0x1ad:"] = "turbo ratio limits"; why["0x1b0:"] = "energy/performance bias"
		why["0x610:"] = why["0x613:"] = why["0x618:"] = why["0x61b:"] = why["0x61c:"] = why["0x639:"] = why["0x641:"] = why["0x65c:"] = \
			"RAPL limits, status and PP0/PP1 (the simulator models the package and DRAM energy counters alone)"
		why["0x620:"] = "uncore ratio limit (MSR_UNCORE_RATIO_LIMIT: Haswell-EP on; the Xeon E5 v1 and v2 have none)"
		why["0x64d:"] = "platform energy (none on SKX: the simulator answers it absent, as modelled, not as a bad access)"
		for (m in msr) printf "%s refused %d x MSR %s %s\n", tool, msr[m], m, why[m]
		print refused + 0 > "/dev/stderr"
		if (other != "") print "UNEXPLAINED" other
	}' "$COUNTS" 2>"$W/refused.n"
}
protocol() { # TOOL: print and judge the simulator's protocol checks after a peer ran
	explain "$1" >"$W/explained"
	sed 's/^/  /' "$W/explained"
	check "$1: every refused register explained, bad_accesses $(count bad_accesses) is their number" \
		'! grep -q UNEXPLAINED "$W/explained" && [ "$(count bad_accesses)" = "$(cat "$W/refused.n")" ]'
	# the control words written while their box counted, found in the trace (sim_host tags each): those after the
	# last read of the thread that wrote them are its clean-up, zeroing the boxes the tool left counting, which it
	# reads no more; one before is a program's own and needs its reason (UNFROZEN_WHY, set by the caller).  Reads of
	# other threads do not count: PCM reads the RAPL energy and each CBo counter from a thread of its own every few
	# seconds (CounterWidthExtender, to catch their wrap), and such a read came after its clean-up in CI runs
	n=$(count unfrozen_ctl_writes) tr=$HOSTDIR/trace
	ut=$(grep -c ' unfrozen$' "$tr" 2>/dev/null)
	# (a line's thread is its last field but the tag; the reads of a thread after one of its unfrozen writes go to
	# $W/unfrozen.before, the first 8, so a failure says which)
	ua=$(awk -v t="$1" -v before="$W/unfrozen.before" '{ th = $NF == "unfrozen" ? $(NF - 1) : $NF }
		$2 == "r" { if (a[th] && k++ < 8) print "  " t ": read after an unfrozen write of its thread: " $0 >before; a[th] = 0 }
		/ unfrozen$/ { a[th]++ } END { for (th in a) s += a[th]; print s + 0 }' "$tr" 2>/dev/null)
	echo "  $1: unfrozen_ctl_writes $n (control words written while the box counted): $ua after the last read of the thread that wrote them, its clean-up zeroing the controls of the boxes it left counting; $((ut - ua)) before${UNFROZEN_WHY:+ ($UNFROZEN_WHY)}"
	cat "$W/unfrozen.before" 2>/dev/null
	rm -f "$W/unfrozen.before"
	check "$1: the trace names each unfrozen control write ($ut of $n), none before its thread's last read but what is explained" \
		'[ -s "$tr" ] && [ "$ut" = "$n" ] && { [ "$ut" = "$ua" ] || [ -n "$UNFROZEN_WHY" ]; }'
	UNFROZEN_WHY=
}

# Besides the registers protocol() names (issue 90), pcm and pcm-power read core registers no uncore count needs:
# core C3, C6 and C7 residency 0x3FC-0x3FE (MSR_CORE_C3/C6/C7_RESIDENCY; C3 and C7 on ICX and SPR), thermal status
# 0x19C (IA32_THERM_STATUS), the SMI count 0x34 (types.h): named here and taken off COUNTS before protocol() judges
# the rest
core_regs() { # TOOL
	awk -v t="$1" 'BEGIN { why["0x3fd:"] = "core C6 residency"; why["0x3fc:"] = "core C3 residency"; why["0x3fe:"] = "core C7 residency"
		why["0x19c:"] = "core thermal status"; why["0x34:"] = "SMI count" }
		$1 == "refused" && $6 in why { n += $2; print "  " t " sim: refused " $2 " x MSR " $6 " " why[$6] " (a core register)"; next }
		$1 == "bad_accesses" { b = $2; next } { print > "/dev/stderr" } END { print "bad_accesses " b - n > "/dev/stderr" }' \
		"$COUNTS" 2>"$COUNTS.core"
	COUNTS=$COUNTS.core
}
