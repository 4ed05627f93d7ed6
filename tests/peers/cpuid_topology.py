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
continue"""
gdb.execute("continue")
