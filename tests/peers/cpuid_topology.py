# gdb script (issue 90 D6): answers CPUID leaf 0xB for a program run under qemu-x86_64 -g SOCKET as a real
# multi-socket Xeon does, with each CPU's own x2APIC id, so an unmodified PCM sees every simulated socket.
# qemu-user answers leaf 0xB with one apic-id property for every thread and affinity (0 by default in user mode),
# with SMT and core widths 0, so its x2APIC id is the socket id itself; this script makes it the socket of the CPU
# the thread is pinned to (the preload's sched_getcpu, tests/peers/devfiles.c) as the served machine's sysfs gives it
# (cpuN/topology/physical_package_id).  The program's binary is not touched: a breakpoint after the one cpuid
# instruction it runs leaf 0xB through rewrites EDX.
#   gdb -batch -ex "py SOCKET, PROGRAM, CPUID_AT, ENTRY, QEMU_PID, TOPOLOGY = ..." -x cpuid_topology.py
# CPUID_AT: the cpuid instruction's address in PROGRAM's ELF (objdump), ENTRY: its ELF entry point (readelf), QEMU_PID:
# the qemu-x86_64 process (its /proc maps place the preload), TOPOLOGY: the machine's sys/devices/system/cpu.
import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set sysroot /")
gdb.execute("set auto-load off")
gdb.execute("file " + PROGRAM)
gdb.execute("target remote " + SOCKET)

# qemu-user loads a PIE at a base of its own: the relocated entry point less the file's
files = gdb.execute("info files", to_string=True)
base = int(files.split("Entry point:")[1].split()[0], 16) - ENTRY
preload = [False]
topology_answered = [False]


class SocketOf(gdb.Function):
    """$socket_of(CPU): the socket the served machine puts CPU on"""

    def __init__(self):
        super().__init__("socket_of")

    def invoke(self, cpu):
        with open("%s/cpu%d/topology/physical_package_id" % (TOPOLOGY, int(cpu))) as f:
            return int(f.read())


class LoadPreload(gdb.Command):
    """load-preload: the preload's symbols, where qemu mapped it (its guest addresses are the host's)"""

    def __init__(self):
        super().__init__("load-preload", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        if preload[0]:
            return
        for line in open("/proc/%d/maps" % QEMU_PID):
            if line.rstrip().endswith("/devfiles.so"):
                gdb.execute("add-symbol-file %s -o 0x%s" % (line.split()[-1], line.split("-")[0]), to_string=True)
                preload[0] = True
                return


SocketOf()
LoadPreload()
# after the cpuid: the leaf is in EDI still (PCM's pcm_cpuid moves it to EAX; cpuid writes EAX-EDX alone), and the
# CPU is the preload's sched_getcpu, the one the thread was pinned to last
bp = gdb.Breakpoint("*0x%x" % (base + CPUID_AT + 2))
bp.condition = "$edi == 0xb"
bp.commands = """silent
load-preload
set $cpu = (int)sched_getcpu()
set $rdx = $socket_of($cpu)
printf "cpuid 0xb.%d on cpu %d: x2APIC id %d\\n", $esi, $cpu, $rdx
python topology_answered[0] = True
continue"""

# CPUID leaf 0xA, the architectural PMU (optional: PMU_AT, the addresses of the cpuid instructions PROGRAM runs leaf 0xA
# through, each after a "mov $0xa,%eax").  qemu-user's TCG answers it with zeros (no core PMU), and PCM refuses to
# program its core counters then ("Trying to program 4 general purpose counters with only 0 available",
# cpucounters.cpp programCoreCounters of 202302).  The answer is a Skylake-SP's, in the layout PCM reads it in
# (readCoreCounterConfig: EAX bits 7:0 the version, 15:8 the general counters, 23:16 their width, 31:24 the length of
# EBX's event vector; EDX bits 4:0 the fixed counters, 12:5 their width; Intel SDM vol. 2A, CPUID leaf 0AH, and
# Linux's union cpuid10_eax/cpuid10_edx, arch/x86/include/asm/perf_event.h): version 4 (SDM vol. 3B 18.2.4, the
# version Skylake brought), 4 general counters a thread with Hyper-Threading on (Linux's Skylake PMU reports
# "generic registers: 4"), 48 bits wide, 7 architectural events all present (EBX 0), 3 fixed counters 48 bits wide.
# The counters themselves are sim_host's plain register file: they count nothing (tests/peers/sim_host.c).
PMU_EAX = 4 | 4 << 8 | 48 << 16 | 7 << 24
PMU_EDX = 3 | 48 << 5


class PmuAnswer(gdb.Breakpoint):
    """after a cpuid of leaf 0xA: a Skylake-SP's answer, set in stop() (gdb resumes by itself where it returns False).
    The first one after a leaf-0xB answer is PCM's readCoreCounterConfig(true) that follows discoverSystemTopology
    (cpucounters.cpp L2692-2696 of 202302): its topology and core PMU are read then, and gdb detaches there (PMU_AT
    given).  Its worker threads program the cores next, each asking leaf 0xA again (isFixedCounterSupported(3)), and
    under qemu 7.2's gdbstub breakpoints hit by threads at once end the session ("Cannot execute this command while
    the target is running", then qemu "uncaught target signal 5"); qemu's zeros answer that one as a Skylake-SP does
    (no fourth fixed counter: ECX bit 3 clear, EDX bits 4:0 not above 3)."""

    def stop(self):
        for reg, val in (("rax", PMU_EAX), ("rbx", 0), ("rcx", 0), ("rdx", PMU_EDX)):
            gdb.execute("set $%s = 0x%x" % (reg, val))
        return topology_answered[0]


pmu_at = globals().get("PMU_AT", ())
for at in pmu_at:
    PmuAnswer("*0x%x" % (base + at + 2))
gdb.execute("continue")
if pmu_at:
    print("leaf 0xA answered after the topology: detaching")
    gdb.execute("delete")
    gdb.execute("detach")
