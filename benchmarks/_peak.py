"""Source of ``peak_kb()`` for the probes the memory benchmarks run in fresh processes
(``python -c``): the process's own high-water mark of resident memory, from ``VmHWM`` (Linux;
``ru_maxrss`` elsewhere, which on Linux keeps the parent's across exec)."""

PEAK_KB = '''
import resource
def peak_kb():
    try:
        with open("/proc/self/status") as f:
            return next(int(ln.split()[1]) for ln in f if ln.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
'''
