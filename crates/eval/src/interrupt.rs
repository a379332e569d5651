//! Ctrl-C and SIGTERM for the commands that run until asked to stop: the signal only sets a flag
//! (`stopped`), which the command checks where it can stop cleanly: `colony eval` starts no more
//! episodes or turns and removes what it made; `colony replay` stops its colonyd. A second
//! signal ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by SIGINT or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);

/// The exit code of a command ended by a second Ctrl-C (128 + SIGINT, as a shell reports it).
pub const EXIT_AT_ONCE: i32 = 130;

extern "C" fn on_stop(_: libc::c_int) {
    if STOP.swap(true, Ordering::SeqCst) {
        // The second signal: end now, without waiting for the turns under way. The children
        // die with the process (`guard::die_with_harness`); their temporary folders stay.
        // SAFETY: _exit(2) is async-signal-safe.
        unsafe { libc::_exit(EXIT_AT_ONCE) }
    }
}

/// From now on SIGINT and SIGTERM set the flag instead of ending the process.
pub fn catch() {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        for sig in [libc::SIGINT, libc::SIGTERM] {
            libc::signal(
                sig,
                on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t,
            );
        }
    }
}

/// Whether SIGINT or SIGTERM came since [`catch`].
pub fn stopped() -> bool {
    STOP.load(Ordering::SeqCst)
}
