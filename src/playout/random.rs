//! The random draws of the playouts and players, from any `Rng` (the
//! callers own their streams: seeded `Xoshiro256PlusPlus`).

use rand_xoshiro::rand_core::Rng;

/// A uniform integer in `0..n` (`n > 0`), by 64x64->128 multiplication
/// (bias below 2^-54 for any board).
#[inline]
pub fn below<R: Rng>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

/// True with probability `p`.
#[inline]
pub fn chance<R: Rng>(rng: &mut R, p: f64) -> bool {
    p >= 1.0 || ((rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)) < p
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::rand_core::SeedableRng;

    #[test]
    fn below_stays_in_range_and_reaches_every_value() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = below(&mut rng, 7);
            assert!(v < 7);
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn chance_at_the_ends_is_certain() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
        assert!((0..1000).all(|_| chance(&mut rng, 1.0)));
        assert!((0..1000).all(|_| !chance(&mut rng, 0.0)));
        let hits = (0..10_000).filter(|_| chance(&mut rng, 0.25)).count();
        assert!((2000..3000).contains(&hits), "{hits}");
    }
}
