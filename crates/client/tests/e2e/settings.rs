//! Settings precedence, level by level, against a real token-protected service: flag beats
//! environment beats config file beats default; a malformed environment integer is skipped with
//! a warning.

use crate::support::{Run, Server, colony, free_port};
use serde_json::{Value, json};
use std::path::Path;

fn write_config(home: &Path, text: &str) {
    let dir = home.join(".config/colony");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

fn config_json(home: &Path, env: &[(&str, &str)], args: &[&str]) -> Value {
    let mut c = colony(home);
    c.envs(env.iter().copied())
        .args(args)
        .args(["config", "--json"]);
    Run::of(c.output().unwrap()).json()
}

#[test]
fn each_level_beats_the_next() {
    let s = Server::start_with(json!({"authToken": "s3cret"}));
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let port = s.http_port.to_string();
    let dead = free_port().to_string();
    let time = |env: &[(&str, &str)], args: &[&str]| {
        let mut c = colony(home);
        c.envs(env.iter().copied()).args(args).arg("time");
        Run::of(c.output().unwrap())
    };

    // Default: nothing set.
    let cfg = config_json(home, &[], &[]);
    assert_eq!(cfg["port"], json!({"value": 8085, "source": "default"}));
    assert_eq!(cfg["ws_port"]["value"], 8086);
    assert_eq!(cfg["host"]["value"], "127.0.0.1");
    assert_eq!(cfg["auth_token"]["source"], "default");
    assert_eq!(cfg["config_file"]["loaded"], false);

    // The config file beats the default.
    write_config(
        home,
        &format!("host = \"127.0.0.1\"\nport = {port}\nws_port = 4242\nauth_token = \"s3cret\"\n"),
    );
    time(&[], &[]).ok();
    let cfg = config_json(home, &[], &[]);
    assert!(
        cfg["port"]["source"]
            .as_str()
            .unwrap()
            .starts_with("config file")
    );
    assert_eq!(cfg["ws_port"]["value"], 4242);
    assert_eq!(cfg["config_file"]["loaded"], true);
    assert!(
        !cfg.to_string().contains("s3cret"),
        "the token is masked: {cfg}"
    );

    // The environment beats the file ...
    assert_eq!(time(&[("COLONY_PORT", &dead)], &[]).code, 6);
    assert_eq!(time(&[("COLONY_TOKEN", "wrong")], &[]).code, 5);
    write_config(home, &format!("port = {dead}\nauth_token = \"wrong\"\n"));
    time(&[("COLONY_PORT", &port), ("COLONY_TOKEN", "s3cret")], &[]).ok();
    let cfg = config_json(
        home,
        &[("COLONY_PORT", &port), ("COLONY_WS_PORT", "4343")],
        &[],
    );
    assert_eq!(cfg["port"]["source"], "environment COLONY_PORT");
    assert_eq!(cfg["ws_port"]["value"], 4343);

    // ... and the flag beats the environment.
    let env = [("COLONY_PORT", dead.as_str()), ("COLONY_TOKEN", "wrong")];
    time(&env, &["--port", &port, "--token", "s3cret"]).ok();
    let env = [("COLONY_PORT", port.as_str()), ("COLONY_TOKEN", "s3cret")];
    assert_eq!(time(&env, &["--port", &dead]).code, 6);
    assert_eq!(time(&env, &["--token", "wrong"]).code, 5);
    let cfg = config_json(
        home,
        &[("COLONY_HOST", "example.invalid")],
        &["--host", "::1"],
    );
    assert_eq!(
        cfg["host"],
        json!({"value": "::1", "source": "flag --host"})
    );
    assert_eq!(cfg["http_url"], "http://[::1]:".to_string() + &dead);

    // A malformed integer in the environment is skipped with a warning: the file's port wins.
    write_config(home, &format!("port = {port}\nauth_token = \"s3cret\"\n"));
    let r = time(&[("COLONY_PORT", "80eighty")], &[]);
    r.ok();
    assert!(
        r.stderr.contains("warning") && r.stderr.contains("COLONY_PORT"),
        "{r:?}"
    );
}

#[test]
fn the_config_file_location_can_be_chosen() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    write_config(home, "port = 1111\n");
    let other = home.join("other.toml");
    std::fs::write(&other, "port = 2222\n").unwrap();
    let third = home.join("third.toml");
    std::fs::write(&third, "port = 3333\n").unwrap();
    let other_s = other.to_str().unwrap();
    assert_eq!(config_json(home, &[], &[])["port"]["value"], 1111);
    let cfg = config_json(home, &[("COLONY_CONFIG", other_s)], &[]);
    assert_eq!(cfg["port"]["value"], 2222);
    assert_eq!(cfg["config_file"]["path"], other_s);
    let cfg = config_json(
        home,
        &[("COLONY_CONFIG", other_s)],
        &["--config", third.to_str().unwrap()],
    );
    assert_eq!(cfg["port"]["value"], 3333);
    // A named file that does not exist, and a file that is not TOML, are bad input.
    let mut c = colony(home);
    c.env("COLONY_CONFIG", home.join("nope.toml")).arg("config");
    assert_eq!(Run::of(c.output().unwrap()).code, 2);
    std::fs::write(&third, "port = = 1\n").unwrap();
    let mut c = colony(home);
    c.args(["--config", third.to_str().unwrap(), "config"]);
    let r = Run::of(c.output().unwrap());
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not valid TOML"), "{r:?}");
}
