//! Nothing an agent starts outlives its turn (in persistent mode, its process). Each turn (each
//! persistent agent process) runs under a guard, a small process of this program
//! (`colony eval __turn-guard MS COMMAND`) that makes itself a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`): every process the agent starts, however it detaches (`setsid`,
//! double forks, its own process group), stays a descendant of the guard, and when the agent's
//! command exits, its time is up or the harness stops it (SIGTERM) the guard kills and reaps
//! every descendant before it exits itself. The harness is a subreaper too, and sweeps (kills
//! and reaps) any child of its own it did not start (what an agent leaves if it kills its guard)
//! after every turn and before it writes results.
//!
//! The harness's own children (each episode's colonyd and the guards) end with the harness too,
//! however it ends (`die_with_harness`: SIGKILL included), so a killed `colony eval` leaves no
//! game server or agent running.
//!
//! This is not a sandbox: a hostile program with the user's rights can still reach anything the
//! user can. It ends what an agent leaves running.

use std::collections::BTreeSet;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The guard's exit code when it cut the agent off at its time limit.
pub const TIMED_OUT: i32 = 124;

/// The guard's exit code when the harness stopped it (SIGTERM; a persistent agent's end).
pub const STOPPED: i32 = 128 + libc::SIGTERM;

/// Set by SIGTERM: the guard ends the agent and everything it started, then exits.
static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn on_sigterm(_: libc::c_int) {
    STOP.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// The hidden first argument of `colony eval` that runs a guard.
pub const ARG: &str = "__turn-guard";

/// Children the harness started on purpose (colonyd processes and guards).
static KNOWN: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Makes this process a child subreaper: orphaned descendants become its children.
pub fn become_subreaper() {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer flag; no memory is involved.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// Has the kernel send `sig` to `cmd`'s process when the harness ends (`PR_SET_PDEATHSIG`): a
/// `colony eval` killed, even by SIGKILL, leaves no colonyd serving and no guard (whose SIGTERM
/// ends its agent) running. The signal comes when the *thread* that started the child ends; the
/// harness starts colonyd and the guards from an episode's worker thread, which outlives them.
/// A harness already gone between the fork and the `prctl` fails the spawn.
pub fn die_with_harness(cmd: &mut Command, sig: libc::c_int) -> &mut Command {
    let harness = std::process::id() as libc::pid_t;
    // SAFETY: the hook runs in the forked child before exec and calls only prctl and getppid,
    // which are async-signal-safe, and allocates nothing (an OS error is a plain code; a boxed
    // error could take the allocator's lock, held by another thread at the fork).
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, sig as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != harness {
                // The harness ended before its child started.
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        })
    }
}

/// Spawns `cmd` as a child the sweep leaves alone.
pub fn spawn_known(cmd: &mut Command) -> std::io::Result<Child> {
    let mut known = KNOWN.lock().expect("not poisoned");
    let child = cmd.spawn()?;
    known.insert(child.id() as i32);
    Ok(child)
}

/// Forgets a child started with [`spawn_known`] (after it was waited for).
pub fn forget(pid: u32) {
    KNOWN.lock().expect("not poisoned").remove(&(pid as i32));
}

/// The pids whose parent is `parent`, read from `/proc/*/stat`.
fn children_of(parent: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|st| {
                    // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
                    let rest = st.rsplit_once(')')?.1;
                    rest.split_whitespace().nth(1)?.parse::<i32>().ok()
                })
                == Some(parent)
        })
        .collect()
}

fn kill(pid: i32) {
    // SAFETY: kill(2) sends a signal; no memory is involved.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

/// Reaps `pid` if it has ended (without blocking).
fn reap(pid: i32) {
    let mut status = 0;
    // SAFETY: waitpid writes the status into a local integer.
    unsafe {
        libc::waitpid(pid, &mut status, libc::WNOHANG);
    }
}

/// Kills and reaps every child of this process but those `keep` names, until none is left (a
/// killed child's own children are handed to this subreaper and killed in the next round), or
/// for 5 s at most.
fn kill_children(keep: impl Fn(i32) -> bool) {
    let me = std::process::id() as i32;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let strays: Vec<i32> = children_of(me).into_iter().filter(|&p| !keep(p)).collect();
        if strays.is_empty() || Instant::now() > deadline {
            return;
        }
        for &p in &strays {
            kill(p);
        }
        std::thread::sleep(Duration::from_millis(5));
        for &p in &strays {
            reap(p);
        }
    }
}

/// Kills and reaps every child of this process the harness did not start (what an agent left
/// if it killed its guard).
pub fn sweep() {
    kill_children(|p| KNOWN.lock().expect("not poisoned").contains(&p));
}

/// The guard: `ARGS = [time limit in ms, command]`. Runs `sh -c COMMAND` (stdin, stdout, stderr,
/// environment and folder inherited), waits for it or its time limit, then kills every
/// descendant. Exits with the command's exit code, 128 + its signal, or [`TIMED_OUT`]. SIGTERM
/// ends it the same way before its time ([`STOPPED`]): how the harness stops a persistent agent.
pub fn main(args: &[String]) -> i32 {
    let [limit_ms, command] = args else {
        eprintln!("usage: colony eval {ARG} MILLISECONDS COMMAND");
        return 2;
    };
    let Ok(limit_ms) = limit_ms.parse::<u64>() else {
        eprintln!("colony eval {ARG}: the time limit must be whole milliseconds");
        return 2;
    };
    become_subreaper();
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe; the command
    // started below gets the default disposition back on exec.
    unsafe {
        libc::signal(
            libc::SIGTERM,
            on_sigterm as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .process_group(0)
        .spawn();
    let Ok(child) = child else {
        eprintln!("colony eval {ARG}: cannot start sh");
        return 127;
    };
    let pid = child.id() as i32;
    let start = Instant::now();
    let limit = Duration::from_millis(limit_ms);
    let code = loop {
        let mut status = 0;
        // SAFETY: waitpid writes the status into a local integer.
        let r = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if r == pid {
            break if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                128 + libc::WTERMSIG(status)
            };
        }
        if r > 0 {
            // An orphaned descendant that ended: reaped, go on.
            continue;
        }
        let stopped = STOP.load(std::sync::atomic::Ordering::SeqCst);
        if stopped || start.elapsed() >= limit {
            // SAFETY: kill(2) with a negative pid signals the process group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            break if stopped { STOPPED } else { TIMED_OUT };
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // Every descendant of the guard is its child by now, or becomes one as its parent dies.
    kill_children(|_| false);
    code
}
