//! `colonyd`: the game host and the control service around it.
//!
//! Start-up: flags, data folder, settings (with the start-up guard), agent state, the world
//! (new, loaded, or a replay's first turn: `replay`), the game host thread, then the HTTP
//! listener and, unless disabled, the WebSocket listener. See ARCHITECTURE.md for the threads
//! and the data flow.

pub mod agent;
pub mod cli;
pub mod fsutil;
pub mod host;
pub mod http;
pub mod hub;
pub mod listen;
pub mod replay;
pub mod saves;
pub mod settings;
pub mod ws;

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

/// The machine's cores (at least one). colonyd's runtime runs one core thread more than this, and
/// at most this many snapshot reads render at once (`http::pipeline`), so one core thread is
/// always free for writes and cached reads.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The socket address for a `listenAddress` value (`+` means every interface).
pub fn bind_addr(listen: &str, port: u16) -> Result<SocketAddr, String> {
    let host = match listen.trim() {
        "+" | "*" => "0.0.0.0",
        a if a.eq_ignore_ascii_case("localhost") => "127.0.0.1",
        a => a.trim_start_matches('[').trim_end_matches(']'),
    };
    host.parse::<std::net::IpAddr>()
        .map(|ip| SocketAddr::new(ip, port))
        .map_err(|_| format!("listenAddress {listen:?} is not an IP address (use 127.0.0.1, ::1, localhost, 0.0.0.0 or +)"))
}

/// True when the address only accepts local connections.
pub fn is_loopback(listen: &str) -> bool {
    bind_addr(listen, 0)
        .map(|a| a.ip().is_loopback())
        .unwrap_or(false)
}

fn init_logging() {
    let filter =
        tracing_subscriber::EnvFilter::try_from_env("COLONY_LOG").unwrap_or_else(|_| "info".into());
    // Colour codes only on a terminal (a log written to a file stays plain), and never with
    // NO_COLOR set.
    use std::io::IsTerminal;
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        .try_init();
}

/// Runs the service; returns the process exit code.
pub async fn run(args: cli::Args) -> i32 {
    init_logging();
    let data_dir = args.data_dir();
    // Temporary files a crash left in the middle of an atomic write (settings, agent state, saves).
    for dir in [data_dir.clone(), data_dir.join("saves")] {
        let n = fsutil::remove_leftover_temps(&dir);
        if n > 0 {
            tracing::info!(
                "removed {n} leftover temporary file(s) in {}",
                dir.display()
            );
        }
    }
    let settings_path = args
        .settings
        .clone()
        .unwrap_or_else(|| data_dir.join("settings.json"));
    // A file that is not a JSON object stops the start-up: serving without the token (or the
    // other keys) it holds, and rewriting it with defaults at the next change, would lose them.
    let loaded = match settings::load(&settings_path) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("colonyd: refusing to start: {e}");
            return 2;
        }
    };
    for n in &loaded.notices {
        tracing::info!("{n}");
    }
    for w in &loaded.warnings {
        tracing::warn!("{w}");
    }
    let mut cfg = loaded.settings.clone();
    // `--http-port` / `--ws-port` win over the settings file for this run only.
    if let Some(p) = args.http_port {
        cfg.http_port = p;
    }
    if let Some(p) = args.ws_port {
        cfg.ws_port = p;
    }
    // The start-up guard: never expose an unauthenticated service beyond this machine.
    if !is_loopback(&cfg.listen_address) && cfg.auth_token.is_empty() {
        eprintln!(
            "colonyd: refusing to start: listenAddress {} is not loopback and authToken is empty; set authToken in {} or listen on 127.0.0.1",
            cfg.listen_address,
            settings_path.display()
        );
        return 2;
    }
    let token_chars = cfg.auth_token.chars().count();
    if !is_loopback(&cfg.listen_address) && token_chars < settings::MIN_NETWORK_TOKEN_CHARS {
        eprintln!(
            "colonyd: refusing to start: listenAddress {} is not loopback and authToken is {token_chars} characters; a token for the network must be at least {} characters (e.g. 32 random letters and digits): set a longer authToken in {} or listen on 127.0.0.1",
            cfg.listen_address,
            settings::MIN_NETWORK_TOKEN_CHARS,
            settings_path.display()
        );
        return 2;
    }
    let (http_addr, ws_addr) = match (
        bind_addr(&cfg.listen_address, cfg.http_port),
        bind_addr(&cfg.listen_address, cfg.ws_port),
    ) {
        (Ok(h), Ok(w)) => (h, w),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("colonyd: {e}");
            return 2;
        }
    };
    let file_existed = settings_path.exists();
    let store = settings::SettingsStore::new(settings_path.clone(), loaded);
    if !file_existed && let Err(e) = store.write_now() {
        tracing::warn!(
            "cannot create the settings file {}: {e}",
            settings_path.display()
        );
    }
    tokio::spawn(store.clone().run_writer());

    let hub = hub::Hub::default();
    // A replay has no agent to wait for: its gate opens at start-up.
    let ready = args.ready || args.replay.is_some();
    let (agent, warning) =
        agent::AgentStore::open(data_dir.join("agent-state.json"), hub.clone(), ready);
    if let Some(w) = warning {
        tracing::warn!("{w}");
    }
    // A connector that stopped sending heartbeats (without closing its socket) is detached.
    {
        let agent = agent.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(5));
            loop {
                every.tick().await;
                agent.connector_left(None);
            }
        });
    }
    let saves_dir = data_dir.join("saves");
    let mut replay = None;
    let world = match (&args.replay, &args.load) {
        (Some(dir), _) => match replay::Replay::open(dir) {
            Ok((r, w)) => {
                tracing::info!(
                    "serving the replay of {} ({} turns) from {}, read-only",
                    r.index().episode,
                    r.range().1,
                    dir.display()
                );
                replay = Some(Arc::new(r));
                w
            }
            Err(e) => {
                eprintln!("colonyd: cannot serve the replay: {e}");
                return 2;
            }
        },
        (None, Some(save)) => match saves::read(&saves_dir, save) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("colonyd: cannot load {save}: {e}");
                return 1;
            }
        },
        (None, None) => {
            let body = http::lifecycle::NewGameBody {
                seed: args.seed,
                faction: Some(args.faction.clone()),
                map: args.map.clone().map(serde_json::Value::String),
                settlement: args.settlement.clone(),
                mode: Some(args.mode.clone()),
                setup: None,
            };
            match http::lifecycle::new_game_config(body)
                .and_then(|c| sim::World::try_new(&c).map_err(host::command_error))
            {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("colonyd: {e}");
                    return 2;
                }
            }
        }
    };
    tracing::info!(
        "game: {} ({}), seed {}, map {}x{}",
        world.settlement(),
        world.faction(),
        world.seed(),
        world.map().width(),
        world.map().height()
    );
    let autosaver = saves::Autosaver::start(saves_dir.clone(), hub.clone());
    let host = host::spawn(world, store.clone(), hub.clone(), autosaver);

    let host_form: Option<Arc<str>> = http::pipeline::host_form(&cfg.listen_address).map(Arc::from);
    let state = http::AppState {
        settings: store.clone(),
        agent: agent.clone(),
        hub: hub.clone(),
        host,
        saves_dir: Arc::new(saves_dir),
        host_form: host_form.clone(),
        built: Arc::new(OnceLock::new()),
        ws_listening: http::WsListening {
            port: cfg.ws_port,
            enabled: cfg.ws_enabled,
        },
        cache: http::cache::ReadCache::default(),
        search_world: http::buildings::SearchWorld::default(),
        kept_masks: http::placement_mask::KeptMasks::default(),
        replay,
    };
    // The placement search's kept world copy is dropped once the game has moved on, so an old
    // world's tables are not held until the next search.
    {
        let (kept, host) = (state.search_world.clone(), state.host.clone());
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(5));
            loop {
                every.tick().await;
                if let Some(old) = kept.take_stale(&host.snapshot()) {
                    // (Freeing a large world's tables takes a few milliseconds.)
                    tokio::task::spawn_blocking(move || drop(old));
                }
            }
        });
    }
    let app = http::app(state);
    let http_listener = match tokio::net::TcpListener::bind(http_addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "colonyd: cannot listen on {http_addr} (httpPort): {e}; pick another port with --http-port PORT or httpPort in {}",
                settings_path.display()
            );
            return 1;
        }
    };
    let ws_listener = if cfg.ws_enabled {
        match tokio::net::TcpListener::bind(ws_addr).await {
            Ok(l) => Some(l),
            Err(e) => {
                eprintln!(
                    "colonyd: cannot listen on {ws_addr} (wsPort): {e}; pick another port with --ws-port PORT or wsPort in {} (or set wsEnabled false)",
                    settings_path.display()
                );
                return 1;
            }
        }
    } else {
        None
    };
    let listen_settings = store.clone();
    let ws_state = ws::WsState {
        settings: store.clone(),
        agent: agent.clone(),
        hub: hub.clone(),
        host_form,
        http_port: http_listener
            .local_addr()
            .map_or(http_addr.port(), |a| a.port()),
    };
    match &ws_listener {
        Some(_) => {
            tracing::info!("colonyd listening: http://{http_addr} and ws://{ws_addr}/api/ws")
        }
        None => tracing::info!("colonyd listening: http://{http_addr} (WebSocket disabled)"),
    }
    let shutdown = async {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .expect("signal handler");
            tokio::select! { _ = ctrl_c => {}, _ = term.recv() => {} }
        }
        #[cfg(not(unix))]
        let _ = ctrl_c.await;
    };
    let http_server = listen::serve(http_listener, app, listen_settings.clone(), "http");
    if let Some(l) = ws_listener {
        let ws_server = listen::serve(l, ws::router(ws_state), listen_settings, "ws");
        tokio::select! {
            _ = http_server => {},
            _ = ws_server => {},
            _ = shutdown => {},
        }
    } else {
        tokio::select! {
            _ = http_server => {},
            _ = shutdown => {},
        }
    }
    hub.close_all();
    if let Err(e) = agent.flush() {
        eprintln!("colonyd: cannot write the agent state at shutdown: {e}");
    }
    if let Err(e) = store.flush() {
        eprintln!("colonyd: cannot write settings at shutdown: {e}");
    }
    tracing::info!("colonyd stopped");
    0
}
