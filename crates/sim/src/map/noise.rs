//! Value noise for terrain generation, built from plain arithmetic only (no `sin`/`exp`), so the
//! same seed gives bit-identical maps on every platform and build.

use crate::rng::WorldRng;

/// One octave: random values on a square lattice, smoothly interpolated between lattice points.
struct Octave {
    /// log2 of the cell size (cells are powers of two, so lattice lookups are shifts).
    shift: u32,
    cols: usize,
    values: Vec<f64>,
    /// Smoothstep weight of each offset `0..cell` within a lattice cell.
    weights: Vec<f64>,
}

/// Fractal value noise: a few octaves of decreasing cell size and weight; values in 0..1.
pub(super) struct Noise {
    octaves: Vec<(Octave, f64)>,
}

fn smoothstep(t: f64) -> f64 {
    t * t * (3.0 - 2.0 * t)
}

impl Noise {
    /// Noise over a `width` x `height` area with octaves of the given `(cell size, weight)`;
    /// cell sizes must be powers of two.
    pub(super) fn new(
        rng: &mut WorldRng,
        width: u32,
        height: u32,
        octaves: &[(u32, f64)],
    ) -> Noise {
        let total: f64 = octaves.iter().map(|(_, w)| w).sum();
        let octaves = octaves
            .iter()
            .map(|&(cell, weight)| {
                assert!(
                    cell.is_power_of_two(),
                    "noise cell size {cell} is not a power of two"
                );
                let cols = (width / cell) as usize + 2;
                let rows = (height / cell) as usize + 2;
                let values = (0..cols * rows).map(|_| rng.unit_f64()).collect();
                let weights = (0..cell)
                    .map(|i| smoothstep(f64::from(i) / f64::from(cell)))
                    .collect();
                let octave = Octave {
                    shift: cell.trailing_zeros(),
                    cols,
                    values,
                    weights,
                };
                (octave, weight / total)
            })
            .collect();
        Noise { octaves }
    }

    /// The noise value at tile `(x, y)`, in 0..1.
    pub(super) fn at(&self, x: u32, y: u32) -> f64 {
        self.octaves
            .iter()
            .map(|(o, weight)| {
                let mask = (1u32 << o.shift) - 1;
                let (ix, iy) = ((x >> o.shift) as usize, (y >> o.shift) as usize);
                let (fx, fy) = (
                    o.weights[(x & mask) as usize],
                    o.weights[(y & mask) as usize],
                );
                let v = |cx: usize, cy: usize| o.values[cy * o.cols + cx];
                let top = v(ix, iy) + (v(ix + 1, iy) - v(ix, iy)) * fx;
                let bottom = v(ix, iy + 1) + (v(ix + 1, iy + 1) - v(ix, iy + 1)) * fx;
                (top + (bottom - top) * fy) * weight
            })
            .sum()
    }
}

/// A smooth periodic wave with period 1 and range -1..1, shaped like a sine (piecewise parabola).
pub(super) fn wave(turns: f64) -> f64 {
    let s = turns - turns.floor();
    if s < 0.5 {
        16.0 * s * (0.5 - s)
    } else {
        -16.0 * (s - 0.5) * (1.0 - s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wave_is_periodic_and_bounded() {
        assert!((wave(0.25) - 1.0).abs() < 1e-12);
        assert!((wave(0.75) + 1.0).abs() < 1e-12);
        assert!(wave(0.0).abs() < 1e-12 && wave(0.5).abs() < 1e-12);
        assert!((wave(3.25) - wave(0.25)).abs() < 1e-12);
        assert!((wave(-0.75) - wave(0.25)).abs() < 1e-12);
    }

    #[test]
    fn noise_is_in_range_and_continuous() {
        let mut rng = WorldRng::new(1, 9);
        let n = Noise::new(&mut rng, 64, 64, &[(16, 0.7), (8, 0.3)]);
        for y in 0..64 {
            for x in 0..64 {
                let v = n.at(x, y);
                assert!((0.0..=1.0).contains(&v));
                if x > 0 {
                    assert!((v - n.at(x - 1, y)).abs() < 0.25);
                }
            }
        }
    }
}
