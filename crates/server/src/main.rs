//! `colonyd`: parses the flags and runs the service until Ctrl-C or SIGTERM.

use clap::Parser;

fn main() {
    let args = server::cli::Args::parse();
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
