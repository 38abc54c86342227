"""numpy's copyto of 256 MiB (hp.c's twin): median and least of 9, and AnonHugePages."""
import time
import numpy as np
a = np.ones(64 << 20, dtype=np.float32)
b = np.ones_like(a)
np.copyto(b, a)
t = []
for _ in range(9):
    t0 = time.perf_counter()
    np.copyto(b, a)
    t.append(time.perf_counter() - t0)
t.sort()
huge = [l.split(":")[1].strip() for l in open("/proc/self/smaps_rollup") if l.startswith("AnonHugePages")]
print("numpy copyto 256 MiB: median %.2f ms least %.2f ms; AnonHugePages %s" % (1e3 * t[4], 1e3 * t[0], huge))
