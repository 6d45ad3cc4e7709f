package server

import "syscall"

// osYield gives up the core of the calling thread to any thread waiting for it
// (sched_yield(2)); it returns at once when none is. RawSyscall, because the call never
// blocks: going through the scheduler's system-call path would let it hand the
// processor to another thread, which costs more than the yield.
func osYield() { syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
