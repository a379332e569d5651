//! `colony connect --agent 'COMMAND'`: the agent connector.
//!
//! One thread runs a poll loop over a WebSocket to the service: it reads `state` frames (the
//! first after each connect is the truth), runs the agent command for a pending prompt (or, in
//! autonomous mode, for the goal) — never two at once — and reports back in `heartbeat` frames:
//! every 30 s, right after each change it causes, and right after each connect. A finished agent
//! process is reported by a helper thread over a channel, so a run survives the connection (and
//! the service) going away and is reported once it is back.

use crate::config::Settings;
use crate::ws::{self, Backoff, Conn, Recv};
use protocol::agent::{AgentMode, AgentState};
use protocol::frame::{Frame, HeartbeatPayload};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// Heartbeat cadence.
pub const HEARTBEAT: Duration = Duration::from_secs(30);
/// With no traffic at all for this long (the service pings every 20 s), the connection is
/// considered dead and reopened.
pub const SILENCE: Duration = Duration::from_secs(75);
/// Status values the connector reports.
pub const IDLE: &str = "idle";
pub const RUNNING: &str = "running";

/// Options of `colony connect`.
pub struct ConnectOpts {
    /// Shell command of the agent (run with `sh -c`).
    pub agent: String,
    /// Pause between autonomous turns after a success.
    pub turn_pause: Duration,
}

/// What a finished agent process left.
struct Outcome {
    /// `None` on success, else a description of the failure.
    error: Option<String>,
}

struct Job {
    rx: Receiver<Outcome>,
    label: String,
}

struct Connector<'a> {
    settings: &'a Settings,
    opts: &'a ConnectOpts,
    /// The latest agent state seen.
    state: Option<AgentState>,
    /// The epoch `acked` belongs to.
    epoch: Option<String>,
    /// Highest request id taken by an agent run in this epoch.
    acked: u64,
    job: Option<Job>,
    /// A `last_error` update not yet sent: `Some(None)` clears, `Some(Some(e))` sets.
    unsent_error: Option<Option<String>>,
    /// No autonomous turn before this instant.
    next_turn: Instant,
    failures: u32,
    /// Send a heartbeat at the next chance.
    dirty: bool,
    last_heartbeat: Instant,
    said_no_goal: bool,
}

fn log(msg: impl AsRef<str>) {
    eprintln!("colony connect: {}", msg.as_ref());
}

/// Runs the connector until the process is killed.
pub fn run(settings: &Settings, opts: &ConnectOpts) -> i32 {
    let mut c = Connector {
        settings,
        opts,
        state: None,
        epoch: None,
        acked: 0,
        job: None,
        unsent_error: None,
        next_turn: Instant::now(),
        failures: 0,
        dirty: false,
        last_heartbeat: Instant::now(),
        said_no_goal: false,
    };
    c.run()
}

impl Connector<'_> {
    fn status(&self) -> &'static str {
        if self.job.is_some() { RUNNING } else { IDLE }
    }

    fn run(&mut self) -> i32 {
        let mut backoff = Backoff::default();
        let mut conn: Option<Conn> = None;
        // Whether the first state frame of this connection has arrived.
        let mut synced = false;
        let mut next_connect = Instant::now();
        let mut last_traffic = Instant::now();
        log(format!(
            "agent command: {}; service {}",
            self.opts.agent,
            self.settings.ws_url()
        ));
        loop {
            self.poll_job();
            if conn.is_none() {
                if Instant::now() >= next_connect {
                    match ws::connect(self.settings) {
                        Ok(c) => {
                            conn = Some(c);
                            synced = false;
                            last_traffic = Instant::now();
                        }
                        Err(e) => {
                            let d = backoff.next_delay();
                            log(format!("{e}; retrying in {:.1} s", d.as_secs_f64()));
                            next_connect = Instant::now() + d;
                        }
                    }
                }
                if conn.is_none() {
                    std::thread::sleep(ws::POLL);
                    continue;
                }
            }
            let c = conn.as_mut().expect("connected");
            let mut lost = None;
            match c.recv() {
                Recv::Frame(f) => {
                    last_traffic = Instant::now();
                    if f.kind.eq_ignore_ascii_case("state")
                        && let Some(p) = f.payload
                    {
                        match serde_json::from_value::<AgentState>(p) {
                            Ok(s) => {
                                if !synced {
                                    synced = true;
                                    backoff.reset();
                                    log(format!("connected to {}", self.settings.ws_url()));
                                    // Resend the ack, status and any unsent error at once.
                                    self.dirty = true;
                                }
                                self.on_state(s);
                            }
                            Err(e) => log(format!("ignoring a state frame I cannot read: {e}")),
                        }
                    } else if f.kind.eq_ignore_ascii_case("error") {
                        log(format!(
                            "the service reported: {}",
                            f.payload.unwrap_or_default()
                        ));
                    }
                }
                Recv::Other => last_traffic = Instant::now(),
                Recv::Idle => {
                    if last_traffic.elapsed() > SILENCE {
                        lost = Some(format!("no traffic for {} s", SILENCE.as_secs()));
                    }
                }
                Recv::Closed(reason) => lost = Some(reason),
            }
            if lost.is_none() && synced {
                self.dispatch();
                if self.dirty || self.last_heartbeat.elapsed() >= HEARTBEAT {
                    if let Err(e) = c.send(&self.heartbeat()) {
                        lost = Some(e);
                    } else {
                        self.dirty = false;
                        self.unsent_error = None;
                        self.last_heartbeat = Instant::now();
                    }
                }
            }
            if let Some(reason) = lost {
                conn = None;
                let d = backoff.next_delay();
                log(format!(
                    "{reason}; reconnecting in {:.1} s",
                    d.as_secs_f64()
                ));
                next_connect = Instant::now() + d;
            }
        }
    }

    fn heartbeat(&self) -> Frame {
        let hb = HeartbeatPayload {
            version: Some(protocol::CONTRACT_VERSION.to_string()),
            agent_status: Some(self.status().to_string()),
            acked_request_id: Some(self.acked),
            epoch: self.epoch.clone(),
            last_error: self.unsent_error.clone(),
        };
        Frame::new(
            "heartbeat",
            serde_json::to_value(hb).expect("heartbeats serialize"),
        )
    }

    fn on_state(&mut self, s: AgentState) {
        if self.epoch.as_deref() != Some(s.epoch.as_str()) {
            if self.epoch.is_some() {
                log(format!(
                    "new epoch {} (the service restarted or loaded a game): request ids start over",
                    s.epoch
                ));
            }
            self.epoch = Some(s.epoch.clone());
            self.acked = 0;
        }
        self.state = Some(s);
    }

    /// Starts an agent run if there is work and none is running.
    fn dispatch(&mut self) {
        if self.job.is_some() {
            return;
        }
        let Some(s) = self.state.clone() else { return };
        if let Some(p) = s.pending_request.as_ref().filter(|p| p.id > self.acked) {
            self.acked = p.id;
            self.start(&p.prompt, "request", Some(p.id), &s);
            return;
        }
        if s.mode == AgentMode::Autonomous && s.ready && Instant::now() >= self.next_turn {
            if s.goal.trim().is_empty() {
                if !self.said_no_goal {
                    log(
                        "autonomous mode without a goal: waiting for one (colony agent-config goal:...)",
                    );
                    self.said_no_goal = true;
                }
                return;
            }
            self.said_no_goal = false;
            self.start(&s.goal, "autonomous", None, &s);
        }
    }

    fn start(&mut self, prompt: &str, mode: &str, request_id: Option<u64>, s: &AgentState) {
        let label = match request_id {
            Some(id) => format!("request {id}"),
            None => "autonomous turn".to_string(),
        };
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(&self.opts.agent)
            .env("COLONY_PROMPT", prompt)
            .env("COLONY_GOAL", &s.goal)
            .env(
                "COLONY_REQUEST_ID",
                request_id.map(|i| i.to_string()).unwrap_or_default(),
            )
            .env("COLONY_MODE", mode)
            .env("COLONY_EPOCH", &s.epoch)
            .env("COLONY_HOST", &self.settings.host.value)
            .env("COLONY_PORT", self.settings.port.value.to_string())
            .env("COLONY_WS_PORT", self.settings.ws_port.value.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped());
        match self.settings.token() {
            Some(t) => cmd.env("COLONY_TOKEN", t),
            None => cmd.env_remove("COLONY_TOKEN"),
        };
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                let msg = format!("cannot start the agent command for {label}: {e}");
                log(&msg);
                self.finish(Some(msg));
                return;
            }
        };
        log(format!("started the agent for {label}"));
        if let Some(mut stdin) = child.stdin.take() {
            let prompt = prompt.to_string();
            std::thread::spawn(move || {
                // An agent that ignores stdin may close it early; that is fine.
                let _ = stdin.write_all(prompt.as_bytes());
            });
        }
        let stderr = child.stderr.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            // Echo the agent's stderr and keep its tail for the error report.
            let mut tail: Vec<String> = Vec::new();
            if let Some(err) = stderr {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    eprintln!("{line}");
                    tail.push(line);
                    if tail.len() > 5 {
                        tail.remove(0);
                    }
                }
            }
            let error = match child.wait() {
                Ok(st) if st.success() => None,
                Ok(st) => {
                    let what = match st.code() {
                        Some(c) => format!("the agent command exited with status {c}"),
                        None => format!("the agent command was killed ({st})"),
                    };
                    let tail = tail.join(" | ");
                    Some(if tail.trim().is_empty() {
                        what
                    } else {
                        format!("{what}: {}", truncate(&tail, 400))
                    })
                }
                Err(e) => Some(format!("waiting for the agent command failed: {e}")),
            };
            let _ = tx.send(Outcome { error });
        });
        self.job = Some(Job { rx, label });
        self.dirty = true;
    }

    /// Collects a finished run.
    fn poll_job(&mut self) {
        let Some(job) = &self.job else { return };
        match job.rx.try_recv() {
            Ok(out) => {
                let label = job.label.clone();
                self.job = None;
                match &out.error {
                    None => log(format!("the agent finished {label}")),
                    Some(e) => log(format!("the agent failed {label}: {e}")),
                }
                self.finish(out.error);
            }
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.job = None;
                self.finish(Some("the agent run ended without a result".into()));
            }
        }
    }

    fn finish(&mut self, error: Option<String>) {
        if error.is_some() {
            self.failures += 1;
            // Failing autonomous turns back off like reconnects do: 1 s doubling to 30 s.
            let d = Backoff::FIRST * 2u32.saturating_pow(self.failures.min(6) - 1);
            self.next_turn = Instant::now() + d.min(Backoff::MAX);
        } else {
            self.failures = 0;
            self.next_turn = Instant::now() + self.opts.turn_pause;
        }
        self.unsent_error = Some(error);
        self.dirty = true;
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}
