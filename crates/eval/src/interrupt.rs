//! Ctrl-C and SIGTERM for the commands that run until asked to stop: the signal only sets a flag
//! (`stopped`), which the command checks where it can stop cleanly: `colony eval` starts no more
//! episodes or turns and removes what it made; `colony replay` stops its colonyd.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by SIGINT or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
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
