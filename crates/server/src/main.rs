//! `colonyd`: parses the flags and runs the service until Ctrl-C or SIGTERM. Its allocator is
//! mimalloc, tuned to give freed memory back to the OS within a second (docs/performance.md,
//! "Memory").

use clap::Parser;

/// glibc's malloc kept the memory freed by reads and loads (one arena per worker thread):
/// 300-350 MB resident with a 80 MB heap after reads and new/load cycles.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (`mimalloc.h`; option numbers stay stable across versions,
/// retired options keep their slot), which `libmimalloc-sys` does not name.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// How long freed memory waits before it goes back to the OS (mimalloc's default: 1 s, which
/// kept a second of the reads' garbage, 180-190 MB under load; 0 made a game day 15-25% slower).
const PURGE_DELAY_MS: std::ffi::c_long = 10;

/// How often `purge_thread` purges.
const PURGE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Sets mimalloc's purge delay (unless `MIMALLOC_PURGE_DELAY` is set in the environment) and
/// starts a thread that has it purge every thread's freed memory once a second: mimalloc purges
/// only when some thread allocates again, so what the workers freed before going idle stayed
/// resident.
fn tune_allocator() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets one of mimalloc's integer options; no pointer is involved.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }
    let spawned = std::thread::Builder::new()
        .name("mem-purge".into())
        .spawn(|| {
            loop {
                std::thread::sleep(PURGE_EVERY);
                // SAFETY: no arguments but a flag; collects this thread's (empty) heap and purges
                // the free memory of all arenas, which any thread may do.
                unsafe { libmimalloc_sys::mi_collect(true) };
            }
        });
    if let Err(e) = spawned {
        eprintln!("colonyd: cannot start the memory purge thread ({e}); running without it");
    }
}

fn main() {
    tune_allocator();
    let args = server::cli::Args::parse();
    if args.build_info {
        let info = server::cli::BuildInfo::current();
        println!(
            "{}",
            serde_json::to_string(&info).expect("plain fields serialize")
        );
        std::process::exit(0);
    }
    if let (Some(fixture), Some(save)) = (args.fixture, &args.save) {
        std::process::exit(server::cli::write_fixture(fixture, save));
    }
    // One core thread more than the reads may take for rendering (`server::cores`).
    let code = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(server::cores() + 1)
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(server::run(args)),
        Err(e) => {
            eprintln!("colonyd: cannot start the async runtime: {e}");
            1
        }
    };
    std::process::exit(code);
}
