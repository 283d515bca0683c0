# SPDX-License-Identifier: GPL-2.0
# fake-guest.py KIND PIPE: a scripted shell guest on PIPE.{in,out}, the
# serial pipes of tests/shell.sh, for tests/shell-drive.sh and
# tests/shell-retry.sh. "ioapic": 2.6.9's IO-APIC timer panic before the
# banner; "other": another panic (init's death); "mute": the banner, an
# answer to the first command, then silence.
import os, re, sys, time
kind, p = sys.argv[1], sys.argv[2]
inp = os.open(p + ".in", os.O_RDONLY)  # the driver opens this one first
out = os.open(p + ".out", os.O_WRONLY)
if kind == "ioapic":
    os.write(out, b"ENABLING IO-APIC IRQs\r\nKernel panic - not syncing: "
             b"IO-APIC + timer doesn't work!  Boot with apic=debug\r\n")
    sys.exit(1)
if kind == "other":
    os.write(out, b"Kernel panic - not syncing: Attempted to kill init!\r\n")
    sys.exit(1)
os.write(out, b"shell guest: poweroff, exit or Ctrl-D\r\n~ # ")
buf, answered = b"", 0
end = time.time() + 30
while time.time() < end:
    data = os.read(inp, 4096)
    if not data:
        break
    buf += data
    m = re.search(rb"echo __RC(\d+)=", buf)
    if m and answered == 0:
        os.write(out, b"2500\r\n__RC%s=0__\r\n~ # " % m.group(1))
        answered, buf = 1, b""
sys.exit(1)
