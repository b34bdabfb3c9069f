"""What bench-streams.sh and bench-websockets.sh read of the server process, from /proc/PID."""


def status(pid, field):
    """A field of /proc/PID/status in kB (VmRSS) or as a count (Threads); 0 when absent."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def ticks(pid):
    """The process's user + system CPU time so far, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])
