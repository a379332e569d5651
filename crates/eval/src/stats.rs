//! Statistics of `colony eval compare` and `colony eval leaderboard`: the mean, the interquartile
//! mean (IQM), percentiles, and percentile bootstrap confidence intervals, stratified or not,
//! drawn from a ChaCha8 generator with a fixed seed so the same inputs always give the same
//! intervals. The methods follow Agarwal et al. 2021, "Deep Reinforcement Learning at the Edge of
//! the Statistical Precipice" (the rliable library): IQM as the aggregate, stratified bootstrap
//! (resample runs within each task) for its interval.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Resamples drawn for every interval.
pub const RESAMPLES: usize = 10_000;
/// The generator's seed ("colony" in ASCII): every interval starts from it, so an interval does
/// not depend on which other intervals were computed before it.
pub const SEED: u64 = 0x636f_6c6f_6e79;
/// The intervals' confidence level.
pub const CONFIDENCE: f64 = 0.95;

/// A statistic with its bootstrap confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The statistic of the data itself.
    pub value: f64,
    /// The interval's lower and upper ends.
    pub lo: f64,
    pub hi: f64,
}

impl Estimate {
    /// Rounded to 3 decimals, as results.json rounds its figures.
    pub fn round3(self) -> Estimate {
        let r = |x: f64| (x * 1000.0).round() / 1000.0;
        Estimate {
            value: r(self.value),
            lo: r(self.lo),
            hi: r(self.hi),
        }
    }

    /// Whether the interval lies wholly above (1) or below (-1) zero, or holds it (0).
    pub fn sign(&self) -> i8 {
        if self.lo > 0.0 {
            1
        } else if self.hi < 0.0 {
            -1
        } else {
            0
        }
    }
}

/// The arithmetic mean (0 for no values).
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// The interquartile mean, as rliable computes it (`scipy.stats.trim_mean(x, 0.25)`): sort, drop
/// `floor(n / 4)` values from each end, and average the rest. With fewer than 4 values nothing is
/// dropped (the plain mean); 0 for no values.
pub fn iqm(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    iqm_in_place(&mut s)
}

/// [`iqm`] sorting `v` itself (the bootstrap's buffer), without a copy.
fn iqm_in_place(v: &mut [f64]) -> f64 {
    v.sort_unstable_by(f64::total_cmp);
    let cut = v.len() / 4;
    mean(&v[cut..v.len() - cut])
}

/// The `p`-quantile (0..=1) of sorted values by linear interpolation between closest ranks
/// (Hyndman and Fan's type 7, numpy's default): at rank `h = (n - 1) p`, between the values at
/// `floor(h)` and `floor(h) + 1`. NaN for no values.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Which statistic an interval is for.
#[derive(Clone, Copy, Debug)]
pub enum Stat {
    Mean,
    Iqm,
}

impl Stat {
    fn of(self, v: &mut [f64]) -> f64 {
        match self {
            Stat::Mean => mean(v),
            Stat::Iqm => iqm_in_place(v),
        }
    }
}

/// `stat` of the values of every stratum pooled, with its percentile bootstrap interval
/// ([`CONFIDENCE`], [`RESAMPLES`] resamples, generator seeded with [`SEED`]). Each resample draws,
/// within each stratum on its own, as many values as it holds, with replacement (a stratified
/// bootstrap; with one stratum the plain bootstrap), and takes `stat` of them all pooled. The
/// interval's ends are the resampled statistics' 2.5% and 97.5% quantiles ([`quantile_sorted`]).
/// Empty strata are skipped; `None` when there are no values at all.
pub fn bootstrap(strata: &[&[f64]], stat: Stat) -> Option<Estimate> {
    bootstrap_with(strata, stat, RESAMPLES, SEED)
}

/// [`bootstrap`] with the number of resamples and the seed given.
pub fn bootstrap_with(
    strata: &[&[f64]],
    stat: Stat,
    resamples: usize,
    seed: u64,
) -> Option<Estimate> {
    let strata: Vec<&[f64]> = strata.iter().copied().filter(|s| !s.is_empty()).collect();
    let total: usize = strata.iter().map(|s| s.len()).sum();
    if total == 0 {
        return None;
    }
    let mut pooled: Vec<f64> = strata.iter().flat_map(|s| s.iter().copied()).collect();
    let value = stat.of(&mut pooled);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut buf = Vec::with_capacity(total);
    let mut stats = Vec::with_capacity(resamples.max(1));
    for _ in 0..resamples.max(1) {
        buf.clear();
        for s in &strata {
            for _ in 0..s.len() {
                buf.push(s[rng.random_range(0..s.len())]);
            }
        }
        stats.push(stat.of(&mut buf));
    }
    stats.sort_unstable_by(f64::total_cmp);
    let tail = (1.0 - CONFIDENCE) / 2.0;
    Some(Estimate {
        value,
        lo: quantile_sorted(&stats, tail),
        hi: quantile_sorted(&stats, 1.0 - tail),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iqm_of_known_vectors() {
        // Eight values: two dropped from each end, the mean of 3, 4, 5, 6.
        assert_eq!(iqm(&[8.0, 1.0, 7.0, 2.0, 6.0, 3.0, 5.0, 4.0]), 4.5);
        // An outlier does not move it: 1, 2, 3, 4 -> the middle 2, 3.
        assert_eq!(iqm(&[1.0, 2.0, 3.0, 1000.0]), 2.5);
        // Five values: floor(5 / 4) = 1 dropped from each end (scipy's trim_mean).
        assert_eq!(iqm(&[0.0, 10.0, 20.0, 30.0, 100.0]), 20.0);
        // Fewer than four: the plain mean.
        assert_eq!(iqm(&[1.0, 2.0, 6.0]), 3.0);
        assert_eq!(iqm(&[]), 0.0);
        // Twelve values 0..11: 3 dropped from each end, the mean of 3..=8.
        let v: Vec<f64> = (0..12).map(f64::from).collect();
        assert_eq!(iqm(&v), 5.5);
    }

    #[test]
    fn quantiles_interpolate_between_ranks() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile_sorted(&v, 0.0), 1.0);
        assert_eq!(quantile_sorted(&v, 0.5), 3.0);
        assert_eq!(quantile_sorted(&v, 1.0), 5.0);
        // numpy.percentile([1, 2, 3, 4, 5], 10) == 1.4
        assert!((quantile_sorted(&v, 0.1) - 1.4).abs() < 1e-12);
        assert_eq!(quantile_sorted(&[7.0], 0.975), 7.0);
        assert!(quantile_sorted(&[], 0.5).is_nan());
    }

    /// Scores spread like an agent's: a deterministic wobble around 50.
    fn scores(n: usize) -> Vec<f64> {
        (0..n)
            .map(|i| 50.0 + 20.0 * ((i * 7919 % 101) as f64 / 100.0 - 0.5))
            .collect()
    }

    #[test]
    fn the_interval_holds_the_statistic_and_narrows_with_more_samples() {
        let few = scores(8);
        let many = scores(200);
        for stat in [Stat::Mean, Stat::Iqm] {
            let a = bootstrap(&[&few], stat).unwrap();
            let b = bootstrap(&[&many], stat).unwrap();
            assert!(a.lo <= a.value && a.value <= a.hi, "{stat:?} {a:?}");
            assert!(b.lo <= b.value && b.value <= b.hi, "{stat:?} {b:?}");
            assert!(a.lo < a.hi, "{stat:?} a spread gives an interval: {a:?}");
            assert!(
                b.hi - b.lo < (a.hi - a.lo) / 2.0,
                "{stat:?} 25 times the samples, much narrower: {a:?} {b:?}"
            );
        }
        assert_eq!(bootstrap(&[&few], Stat::Mean).unwrap().value, mean(&few));
        assert_eq!(bootstrap(&[&few], Stat::Iqm).unwrap().value, iqm(&few));
    }

    #[test]
    fn the_same_input_gives_the_same_interval_and_another_seed_another() {
        let v = scores(20);
        let a = bootstrap(&[&v], Stat::Iqm).unwrap();
        assert_eq!(a, bootstrap(&[&v], Stat::Iqm).unwrap());
        let other = bootstrap_with(&[&v], Stat::Iqm, RESAMPLES, SEED + 1).unwrap();
        assert_eq!(other.value, a.value);
        assert_ne!((other.lo, other.hi), (a.lo, a.hi));
    }

    #[test]
    fn degenerate_inputs() {
        assert_eq!(bootstrap(&[], Stat::Mean), None);
        assert_eq!(bootstrap(&[&[], &[]], Stat::Mean), None);
        let one = bootstrap(&[&[4.0]], Stat::Iqm).unwrap();
        assert_eq!((one.value, one.lo, one.hi), (4.0, 4.0, 4.0));
        let same = bootstrap(&[&[3.0; 10]], Stat::Mean).unwrap();
        assert_eq!((same.lo, same.hi), (3.0, 3.0));
    }

    #[test]
    fn strata_are_resampled_on_their_own() {
        // Two strata with no spread inside either: every stratified resample draws five 10s and
        // five 90s, so the pooled mean never moves.
        let a = [10.0; 5];
        let b = [90.0; 5];
        let e = bootstrap(&[&a, &b], Stat::Mean).unwrap();
        assert_eq!((e.value, e.lo, e.hi), (50.0, 50.0, 50.0));
        // Pooled into one stratum, resamples mix them unevenly and the interval opens.
        let pooled: Vec<f64> = a.iter().chain(&b).copied().collect();
        let p = bootstrap(&[&pooled], Stat::Mean).unwrap();
        assert!(p.lo < 50.0 && p.hi > 50.0, "{p:?}");
    }

    #[test]
    fn signs() {
        let e = |lo, hi| Estimate { value: 0.0, lo, hi };
        assert_eq!(e(1.0, 2.0).sign(), 1);
        assert_eq!(e(-2.0, -1.0).sign(), -1);
        assert_eq!(e(-1.0, 1.0).sign(), 0);
    }
}
