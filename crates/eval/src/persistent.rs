//! Persistent agent mode (`--agent-mode persistent`): the agent command is started once per
//! episode, under a guard (`guard`) with an overall limit, with the same environment as a
//! per-turn agent (set once, from the turn it was started for, plus `COLONY_AGENT_MODE`). Each
//! turn the harness writes one JSON line to its stdin (`prompt`, `turn`, `turns`, `day`,
//! `daysLeft`, `turnHours`, `scenario`, `episode`) and waits, at most `--turn-timeout`, for its
//! reply: a line on its stdout that parses as a JSON object with a member `done` (`true`: the
//! turn went well; anything else: the agent says it failed), optionally with `usage` (`usage`)
//! and `turn` (a reply naming another turn is ignored). Every other stdout line, and stderr, go
//! to `agent.log`. A turn without a reply in time is timed out and the process stopped; a process
//! that exits fails its turn; either way a new process is started for the next turn, which its
//! trajectory record says (`started`). A thread reads stdout and hands replies over a channel,
//! so the harness waits on that channel with a timeout; another writes stdin, so an agent that
//! never reads cannot block the harness. At the end of the episode stdin is closed, the agent
//! has a few seconds to exit on its own, then the guard ends it and everything it started.

use crate::agent::{self, TurnEnv, TurnRun, secs};
use crate::guard;
use crate::usage::{self, Usage, log_line};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// Longest stdout line read as one; longer ones go to the log in pieces (never a reply).
const MAX_LINE: u64 = 1 << 20;

/// What the overall limit of a process allows per turn left beyond `--turn-timeout` (the
/// harness's own work between turns).
const SLACK_PER_TURN: Duration = Duration::from_secs(60);

/// How long an agent has to exit by itself once stdin closes at the end of the episode.
const GRACE: Duration = Duration::from_secs(3);

/// How long a stopped guard has to end the agent before it is killed itself.
const STOP_WAIT: Duration = Duration::from_secs(10);

/// What the stdout reader hands the harness.
enum Event {
    /// A reply line: a JSON object with `done`.
    Reply(Value),
    /// Stdout closed: the guard (and so the agent and everything it started) has ended.
    Eof,
}

/// A running agent process.
struct Proc {
    child: Child,
    /// Lines for the stdin writer; dropped to close stdin.
    lines: Option<Sender<String>>,
    events: Receiver<Event>,
}

/// The persistent agent of one episode: the process (started on the first turn and after one
/// ended) and how many were started.
pub struct Persistent {
    command: String,
    log: PathBuf,
    proc: Option<Proc>,
    /// Processes started in this episode (1 when nothing went wrong).
    pub starts: u32,
}

impl Persistent {
    /// An agent that starts `command` on its first turn, logging into `log` (agent.log).
    pub fn new(command: &str, log: PathBuf) -> Persistent {
        Persistent {
            command: command.to_owned(),
            log,
            proc: None,
            starts: 0,
        }
    }

    /// Plays one turn (`turns_left` counting this one): its record and the usage the reply
    /// reported.
    pub fn turn(
        &mut self,
        env: &TurnEnv<'_>,
        timeout: Duration,
        turns_left: u32,
    ) -> (TurnRun, Option<Usage>) {
        let start = Instant::now();
        log_line(&self.log, &format!("turn {} (day {})", env.turn, env.day));
        self.reap_if_ended();
        let started = self.proc.is_none();
        if started {
            let limit = (timeout + SLACK_PER_TURN) * turns_left.max(1);
            match self.start(env, limit) {
                Ok(p) => self.proc = Some(p),
                Err(e) => {
                    log_line(&self.log, &format!("cannot start the agent: {e}"));
                    return (run(start, None, false, true, false), None);
                }
            }
        }
        let p = self.proc.as_mut().expect("started above");
        let line = json!({
            "prompt": env.prompt,
            "turn": env.turn,
            "turns": env.turns,
            "day": env.day,
            "daysLeft": env.days_left,
            "turnHours": env.turn_hours,
            "scenario": env.scenario,
            "episode": env.episode,
        });
        if let Some(tx) = &p.lines {
            // A writer that is gone means the agent's stdin is closed: its reply (or its end)
            // still decides the turn.
            let _ = tx.send(format!("{line}\n"));
        }
        let deadline = start + timeout;
        let reply = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match p.events.recv_timeout(left) {
                Ok(Event::Reply(v)) => {
                    let theirs = v.get("turn");
                    if theirs.is_some_and(|t| t.as_u64() != Some(u64::from(env.turn))) {
                        log_line(
                            &self.log,
                            &format!(
                                "a reply for turn {} ignored during turn {}",
                                theirs.expect("checked"),
                                env.turn
                            ),
                        );
                        continue;
                    }
                    break Some(v);
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => break None,
                Err(RecvTimeoutError::Timeout) => {
                    let p = self.proc.take().expect("running");
                    stop(p, Duration::ZERO);
                    log_line(
                        &self.log,
                        &format!(
                            "turn {} cut off after {} s: agent stopped, a new one starts next turn",
                            env.turn,
                            timeout.as_secs_f64()
                        ),
                    );
                    return (run(start, None, true, true, started), None);
                }
            }
        };
        let Some(v) = reply else {
            let p = self.proc.take().expect("running");
            let code = stop(p, Duration::ZERO);
            log_line(
                &self.log,
                &format!(
                    "agent exited ({}) during turn {} without a reply; a new one starts next turn",
                    exit_text(code),
                    env.turn
                ),
            );
            return (run(start, code, false, true, started), None);
        };
        let done = v.get("done") == Some(&Value::Bool(true));
        if !done {
            log_line(
                &self.log,
                &format!(
                    "turn {}: the agent replied done: {} (a failed turn)",
                    env.turn, v["done"]
                ),
            );
        }
        let usage = v
            .get("usage")
            .and_then(|u| usage::checked(u, "the reply's usage", &self.log));
        (run(start, None, false, !done, started), usage)
    }

    /// Ends the episode's agent: stdin closed, a few seconds to exit, then stopped.
    pub fn finish(mut self) {
        if let Some(p) = self.proc.take() {
            let code = stop(p, GRACE);
            log_line(
                &self.log,
                &format!("episode over: agent ended ({})", exit_text(code)),
            );
        }
    }

    /// A process that ended between turns (or sent replies nobody asked for) is dealt with
    /// before the next turn: extra replies are logged and dropped, an ended process reaped.
    fn reap_if_ended(&mut self) {
        let Some(p) = &mut self.proc else { return };
        let ended = loop {
            match p.events.try_recv() {
                Ok(Event::Reply(_)) => {
                    log_line(&self.log, "a reply line outside a turn ignored");
                }
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => break true,
                Err(TryRecvError::Empty) => break false,
            }
        };
        if ended {
            let code = stop(self.proc.take().expect("running"), Duration::ZERO);
            log_line(
                &self.log,
                &format!(
                    "agent exited ({}) between turns; a new one starts",
                    exit_text(code)
                ),
            );
        }
    }

    /// Starts the command under a guard allowed `limit` in all, with its stdin writer and
    /// stdout reader.
    fn start(&mut self, env: &TurnEnv<'_>, limit: Duration) -> Result<Proc, String> {
        let mut cmd = agent::guarded_command(&self.command, env, limit, "persistent")
            .ok_or("this program's path is unknown")?;
        let err = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("cannot open {}: {e}", self.log.display()))?;
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(err));
        let mut child = guard::spawn_known(&mut cmd).map_err(|e| e.to_string())?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both piped");
        };
        let (lines, to_write) = mpsc::channel::<String>();
        let (tx, events) = mpsc::channel();
        let log = self.log.clone();
        let threads = std::thread::Builder::new()
            .name("agent-stdin".into())
            .spawn(move || {
                for line in to_write {
                    if stdin
                        .write_all(line.as_bytes())
                        .and_then(|()| stdin.flush())
                        .is_err()
                    {
                        break;
                    }
                }
            })
            .and_then(|_| {
                std::thread::Builder::new()
                    .name("agent-stdout".into())
                    .spawn(move || read_stdout(stdout, &log, &tx))
            });
        let mut p = Proc {
            child,
            lines: Some(lines),
            events,
        };
        if let Err(e) = threads {
            let _ = p.child.kill();
            let _ = p.child.wait();
            guard::forget(p.child.id());
            return Err(format!("cannot start a thread: {e}"));
        }
        self.starts += 1;
        log_line(
            &self.log,
            &format!(
                "agent started (process {} of the episode, pid {})",
                self.starts,
                p.child.id()
            ),
        );
        Ok(p)
    }
}

impl Drop for Persistent {
    /// An episode that ends early (an error) stops its agent at once.
    fn drop(&mut self) {
        if let Some(p) = self.proc.take() {
            stop(p, Duration::ZERO);
        }
    }
}

fn run(start: Instant, exit: Option<i32>, timed_out: bool, failed: bool, started: bool) -> TurnRun {
    TurnRun {
        exit,
        seconds: secs(start),
        timed_out,
        failed,
        started: Some(started),
    }
}

fn exit_text(code: Option<i32>) -> String {
    match code {
        Some(guard::STOPPED) => "stopped".into(),
        Some(guard::TIMED_OUT) => "its overall time limit".into(),
        Some(c) => format!("exit code {c}"),
        None => "killed".into(),
    }
}

/// Waits up to `within` for stdout to close; replies meanwhile are dropped.
fn wait_eof(events: &Receiver<Event>, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(left) {
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => return true,
            Ok(Event::Reply(_)) => {}
            Err(RecvTimeoutError::Timeout) => return false,
        }
    }
}

/// Ends a process: stdin closed, `grace` to exit by itself, then the guard is told to end the
/// agent and everything it started (SIGTERM), and killed should it not within [`STOP_WAIT`].
/// Returns the guard's exit code (the agent's, or [`guard::STOPPED`]).
fn stop(mut p: Proc, grace: Duration) -> Option<i32> {
    drop(p.lines.take());
    let pid = p.child.id();
    if !wait_eof(&p.events, grace) {
        // SAFETY: kill(2) sends a signal to the guard, our own child not yet waited for.
        unsafe {
            libc::kill(pid as i32, libc::SIGTERM);
        }
        if !wait_eof(&p.events, STOP_WAIT) {
            let _ = p.child.kill();
        }
    }
    let status = p.child.wait().ok();
    guard::forget(pid);
    // What the agent left if it killed its guard.
    guard::sweep();
    status.and_then(|s| s.code())
}

/// A reply line: a JSON object with a member `done`.
fn reply(line: &[u8]) -> Option<Value> {
    let text = line.trim_ascii();
    if !text.starts_with(b"{") {
        return None;
    }
    let v: Value = serde_json::from_slice(text).ok()?;
    v.as_object()?.contains_key("done").then_some(v)
}

/// The stdout reader: replies to the harness, every other line to the log, then [`Event::Eof`].
fn read_stdout(out: ChildStdout, log: &Path, tx: &Sender<Event>) {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .ok();
    let mut r = BufReader::new(out);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut r).take(MAX_LINE).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if let Some(v) = reply(&line) {
            // A harness that stopped listening still drains the pipe, so the agent never blocks.
            let _ = tx.send(Event::Reply(v));
        } else if let Some(f) = &mut file {
            let _ = f.write_all(&line);
            if !line.ends_with(b"\n") {
                let _ = f.write_all(b"\n");
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_a_json_object_with_done() {
        assert!(reply(b"{\"done\": true}\n").is_some());
        assert!(reply(b"  {\"done\": false, \"usage\": {\"cost\": 1}}\r\n").is_some());
        assert!(reply(b"{\"ok\": true}\n").is_none());
        assert!(reply(b"done\n").is_none());
        assert!(reply(b"[{\"done\": true}]\n").is_none());
        assert!(reply(b"{\"done\": tru\n").is_none());
        assert!(reply(b"day 3: placed a pump {\"done\": true}\n").is_none());
    }
}
