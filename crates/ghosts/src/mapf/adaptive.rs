//! Adaptive large neighbourhood search's choice of a neighbourhood (Ropke and Pisinger,
//! 2006; for MAPF, Li et al., IJCAI 2021): each way of choosing one has a weight, a step
//! draws a way with probability proportional to its weight, and the weight then follows
//! what that step gained (`w = (1 - r) w + r gain`, `r` the reaction factor), so the ways
//! that gain lately are drawn more often. A least weight keeps every way drawn now and
//! then: what gains changes as the plan improves.
//!
//! # Complexity
//! O(N) per draw and O(1) per update for N ways.

use super::pibt::Noise;

/// How much a way's weight follows its last step (the reaction factor of Li et al.).
pub const REACTION: f64 = 0.01;

/// The least weight of a way, so that none is dropped for good.
pub const LEAST_WEIGHT: f64 = 0.01;

/// The weights of `N` ways of choosing a neighbourhood.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights<const N: usize> {
    weights: [f64; N],
}

impl<const N: usize> Default for Weights<N> {
    /// Every way equally likely.
    fn default() -> Self {
        Weights { weights: [1.0; N] }
    }
}

impl<const N: usize> Weights<N> {
    /// Every way equally likely, but those `off` never drawn (at least one must be on).
    pub fn without(off: [bool; N]) -> Self {
        let mut weights = [1.0; N];
        for (w, off) in weights.iter_mut().zip(off) {
            if off {
                *w = 0.0;
            }
        }
        debug_assert!(weights.iter().any(|&w| w > 0.0));
        Weights { weights }
    }

    /// A way drawn with probability proportional to its weight.
    pub fn draw(&self, noise: &mut Noise) -> usize {
        let total: f64 = self.weights.iter().sum();
        let mut pick = (noise.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let mut last = 0;
        for (i, &w) in self.weights.iter().enumerate() {
            if w <= 0.0 {
                continue;
            }
            if pick < w {
                return i;
            }
            pick -= w;
            last = i;
        }
        last
    }

    /// Way `i` gained `gain` (0 or more) in its last step.
    pub fn reward(&mut self, i: usize, gain: f64) {
        if self.weights[i] <= 0.0 {
            return;
        }
        self.weights[i] = ((1.0 - REACTION) * self.weights[i] + REACTION * gain).max(LEAST_WEIGHT);
    }

    /// The weights, in the order of the ways.
    #[cfg(test)]
    pub fn weights(&self) -> [f64; N] {
        self.weights
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_follow_the_gains_and_never_a_way_switched_off() {
        let mut weights = Weights::<3>::without([false, true, false]);
        let mut noise = Noise::new(7);
        let mut drawn = [0usize; 3];
        for _ in 0..3000 {
            let i = weights.draw(&mut noise);
            drawn[i] += 1;
            // Way 2 gains, way 0 does not.
            weights.reward(i, if i == 2 { 4.0 } else { 0.0 });
        }
        assert_eq!(drawn[1], 0, "{drawn:?}");
        assert!(drawn[2] > 10 * drawn[0], "{drawn:?}");
        // Way 0 keeps its least weight: still drawn now and then.
        assert!(drawn[0] > 0, "{drawn:?}");
        assert!(weights.weights()[0] >= LEAST_WEIGHT);
    }
}
