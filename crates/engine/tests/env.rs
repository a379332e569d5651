//! The in-process environment: masked actions are never refused, the same seed and actions give
//! the same game, an idle colony's rewards add up to its score, and the vector environment's
//! worlds are the single environment's.

use engine::{Env, EnvConfig, VecEnv};
use score::terms::ScoreTerm;

fn term(metric: &str, weight: f64, target: f64) -> ScoreTerm {
    ScoreTerm {
        metric: metric.into(),
        weight,
        target,
        lower_is_better: false,
        survival_scaled: false,
    }
}

/// The benchmark's game on a 32 map, scored on the days of this horizon, beavers and buildings.
fn config(turn_hours: f64, horizon_days: f64) -> EnvConfig {
    EnvConfig {
        horizon_days,
        terms: vec![
            term("days_survived", 4.0, horizon_days),
            term("beavers", 2.0, 30.0),
            term("buildings_built", 0.5, 20.0),
        ],
        ..EnvConfig::benchmark(32, turn_hours)
    }
}

/// A seeded pick among the allowed actions (xorshift; no RNG crate needed).
fn pick(mask: &[i8], state: &mut u64) -> i64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let allowed: Vec<usize> = (0..mask.len()).filter(|i| mask[*i] == 1).collect();
    allowed[(*state % allowed.len() as u64) as usize] as i64
}

/// Plays `steps` masked random steps; returns the state hash after each and the rewards.
fn play(seed: u64, steps: usize) -> (Vec<u64>, Vec<f64>) {
    let mut env = Env::new(config(6.0, 10.0)).unwrap();
    env.reset(seed).unwrap();
    let mut rng = seed.wrapping_mul(0x9e37_79b9) | 1;
    let (mut hashes, mut rewards) = (Vec::new(), Vec::new());
    for _ in 0..steps {
        let a = pick(env.mask(), &mut rng);
        let out = env.step(a);
        assert!(
            out.error.is_none() || out.action == "path",
            "a masked {} was refused: {:?}",
            out.action,
            out.error
        );
        hashes.push(env.world().unwrap().state_hash());
        rewards.push(out.reward);
        if out.terminated || out.truncated {
            break;
        }
    }
    (hashes, rewards)
}

#[test]
fn masked_actions_are_taken_and_the_same_seed_plays_the_same_game() {
    let a = play(11, 30);
    let b = play(11, 30);
    assert_eq!(a, b);
    assert_ne!(a.0, play(12, 30).0);
}

#[test]
fn an_idle_colony_scores_its_rewards_and_ends() {
    let mut env = Env::new(config(24.0, 4.0)).unwrap();
    env.reset(3).unwrap();
    let start = env.score();
    let mut total = 0.0;
    let mut steps = 0;
    loop {
        let out = env.step(0);
        total += out.reward;
        steps += 1;
        assert!(out.error.is_none());
        if out.terminated || out.truncated {
            assert!(out.truncated, "an idle colony lives 4 days");
            break;
        }
    }
    assert_eq!(steps, 4);
    assert!((start + total - env.score()).abs() < 1e-9);
    assert!(env.score() > 0.0 && env.score() <= 1.0);
    assert_eq!(env.observation().day(), 5);
}

#[test]
fn bad_settings_and_actions_are_refused_with_the_contract_codes() {
    let mut cfg = config(0.0, 10.0);
    assert_eq!(Env::new(cfg.clone()).err().unwrap().code, "invalid_param");
    cfg.turn_hours = 1.0;
    cfg.width = 16;
    assert_eq!(Env::new(cfg.clone()).err().unwrap().code, "invalid_param");
    cfg.width = 32;
    cfg.prefabs.push("Castle".into());
    let mut env = Env::new(cfg).unwrap();
    assert_eq!(env.reset(1).unwrap_err().code, "invalid_prefab");
    let mut env = Env::new(config(1.0, 10.0)).unwrap();
    env.reset(1).unwrap();
    let out = env.step(-3);
    assert_eq!(
        (out.action, out.error.unwrap().code),
        ("invalid", "invalid_action")
    );
    // A placement the mask refuses is sent and refused by the game's rules (a pump on the last
    // tile runs off the map).
    let refused = env.layout().place(0, 31, 31, 0);
    assert_eq!(env.mask()[refused as usize], 0);
    let out = env.step(refused as i64);
    let e = out.error.unwrap();
    assert_eq!(
        (e.code, &e.extras["reason"]),
        ("placement", &"out_of_bounds".into())
    );
}

#[test]
fn the_vector_environment_plays_each_world_as_one_environment_does() {
    let cfg = config(12.0, 2.0);
    let mut vec = VecEnv::new(&cfg, 3, 2).unwrap();
    vec.reset(40).unwrap();
    let mut single: Vec<Env> = (0..3)
        .map(|i| {
            let mut e = Env::new(cfg.clone()).unwrap();
            e.reset(40 + i).unwrap();
            e
        })
        .collect();
    for step in 0..6 {
        let actions: Vec<i64> = (0..3).map(|i| (step * 7 + i) as i64 % 3).collect();
        let outs = vec.step(&actions).unwrap();
        for (i, (out, env)) in outs.iter().zip(&mut single).enumerate() {
            if out.action == "reset" {
                // The autoreset plays seed + i + n.
                env.reset(40 + i as u64 + 3).unwrap();
                assert_eq!((out.reward, out.terminated), (0.0, false));
            } else {
                assert_eq!(out, &env.step(actions[i]), "env {i} step {step}");
            }
        }
        for (v, s) in vec.envs().zip(&single) {
            assert_eq!(v.observation(), s.observation());
            assert_eq!(
                v.world().unwrap().state_hash(),
                s.world().unwrap().state_hash()
            );
        }
    }
}
