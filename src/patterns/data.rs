//! The table of trained gammas: its text format and the built-in copy.
//!
//! The format is tab-separated text, one feature a line, sorted by family
//! (in [`FAMILIES`] order) and key:
//!
//! ```text
//! # kosumi patterns, features v2
//! # command: kosumi patterns train --games ... --out data/patterns.tsv
//! # ...more comment lines...
//! capture\t0\t3.12345e1
//! large\tcdc307341e2ac055\t1.2e0
//! ```
//!
//! Keys are decimal, but large pattern codes are 16 hexadecimal digits. Gammas
//! are written with six significant digits, so the file is the same bytes
//! whenever the same command runs on the same corpus.

use super::features::{Family, MoveFeatures, FAMILIES, N_FAMILIES};
use super::PatternError;
use fxhash::FxHashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The feature version a table must declare in its first line. v2
/// (November 2026) keys `dist-prev2` jointly with the distance to the
/// previous move and adds the `save` family: a v1 table's `dist-prev2`
/// keys would mean other moves, so it is refused, not misread.
pub const FEATURE_VERSION: &str = "features v2";

/// The built-in table, trained by `kosumi patterns train` (see its header).
const BUILTIN: &str = include_str!("../../data/patterns.tsv");

/// Trained gammas by family and key.
#[derive(Clone, Debug, Default)]
pub struct PatternTable {
    /// The comment lines at the top (without `# `).
    pub header: Vec<String>,
    gammas: FxHashMap<(Family, u64), f32>,
    counts: [usize; N_FAMILIES],
    /// The same gammas for fast lookups: small keys of the small families
    /// in a flat array (0 where the table lacks the feature)...
    small: Vec<f32>,
    /// ... and the 3x3 shapes and the large patterns in their own maps.
    shape3: FxHashMap<u64, f32>,
    large: FxHashMap<u64, f32>,
}

/// Keys below this of the families other than 3x3 shapes and large
/// patterns go in [`PatternTable`]'s flat array.
const SMALL_KEYS: u64 = 512;

impl PatternTable {
    /// An empty table (every gamma 1).
    pub fn new(header: Vec<String>) -> PatternTable {
        PatternTable {
            header,
            ..PatternTable::default()
        }
    }

    /// Sets the gamma of a feature.
    pub fn insert(&mut self, family: Family, key: u64, gamma: f32) {
        if self.gammas.insert((family, key), gamma).is_none() {
            self.counts[family as usize] += 1;
        }
        match family {
            Family::Shape3 => {
                self.shape3.insert(key, gamma);
            }
            Family::Large => {
                self.large.insert(key, gamma);
            }
            _ if key < SMALL_KEYS => {
                if self.small.is_empty() {
                    self.small = vec![0.0; N_FAMILIES * SMALL_KEYS as usize];
                }
                self.small[family as usize * SMALL_KEYS as usize + key as usize] = gamma;
            }
            _ => {}
        }
    }

    /// Every feature of `family` with its gamma, in no particular order.
    pub fn features(&self, family: Family) -> impl Iterator<Item = (u64, f32)> + '_ {
        self.gammas
            .iter()
            .filter(move |((f, _), _)| *f == family)
            .map(|(&(_, k), &g)| (k, g))
    }

    /// The gamma of a feature, if the table has it.
    pub fn gamma(&self, family: Family, key: u64) -> Option<f32> {
        match family {
            Family::Shape3 => self.shape3.get(&key).copied(),
            Family::Large => self.large.get(&key).copied(),
            _ if key < SMALL_KEYS => self
                .small
                .get(family as usize * SMALL_KEYS as usize + key as usize)
                .copied()
                .filter(|&g| g > 0.0),
            _ => self.gammas.get(&(family, key)).copied(),
        }
    }

    /// Number of features in the table.
    pub fn len(&self) -> usize {
        self.gammas.len()
    }

    /// Whether the table has no feature.
    pub fn is_empty(&self) -> bool {
        self.gammas.is_empty()
    }

    /// Number of features of `family`.
    pub fn count(&self, family: Family) -> usize {
        self.counts[family as usize]
    }

    /// The code of the largest large pattern of `f` the table knows.
    pub fn large_of(&self, f: &MoveFeatures) -> Option<u64> {
        f.large
            .iter()
            .rev()
            .copied()
            .find(|&d| d != 0 && self.large.contains_key(&d))
    }

    /// The gamma of each family for the move with features `f` (1 where the
    /// move has no feature of the family or the table lacks it).
    pub fn move_gammas(&self, f: &MoveFeatures) -> [f32; N_FAMILIES] {
        let large = f
            .large
            .iter()
            .rev()
            .find_map(|&d| if d != 0 { self.large_gamma(d) } else { None });
        self.gammas_with_large(f, large)
    }

    /// The gamma of the large pattern `code`, if the table has it.
    #[inline]
    pub(crate) fn large_gamma(&self, code: u64) -> Option<f32> {
        self.large.get(&code).copied()
    }

    /// [`PatternTable::move_gammas`] with the large pattern's gamma given
    /// (the codes in `f` unread).
    fn gammas_with_large(&self, f: &MoveFeatures, large: Option<f32>) -> [f32; N_FAMILIES] {
        let mut out = [1.0f32; N_FAMILIES];
        for fam in FAMILIES {
            let g = if fam == Family::Large {
                large
            } else {
                f.get(fam).and_then(|k| self.gamma(fam, u64::from(k)))
            };
            if let Some(g) = g {
                out[fam as usize] = g;
            }
        }
        out
    }

    /// The strength of a move: the product of [`PatternTable::move_gammas`].
    pub fn strength(&self, f: &MoveFeatures) -> f64 {
        self.move_gammas(f).iter().map(|&g| f64::from(g)).product()
    }

    /// [`PatternTable::strength`] with the large pattern's gamma given (the
    /// largest pattern of the move that the table knows).
    pub(crate) fn strength_with_large(&self, f: &MoveFeatures, large: Option<f32>) -> f64 {
        self.gammas_with_large(f, large)
            .iter()
            .map(|&g| f64::from(g))
            .product()
    }

    /// The table as text (see the module docs).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for h in &self.header {
            let _ = writeln!(out, "# {h}");
        }
        let mut rows: Vec<(&(Family, u64), &f32)> = self.gammas.iter().collect();
        rows.sort_by_key(|(k, _)| **k);
        for ((fam, key), g) in rows {
            if *fam == Family::Large {
                let _ = writeln!(out, "{}\t{key:016x}\t{g:.5e}", fam.name());
            } else {
                let _ = writeln!(out, "{}\t{key}\t{g:.5e}", fam.name());
            }
        }
        out
    }

    /// Reads a table written by [`PatternTable::to_text`].
    ///
    /// # Errors
    /// [`PatternError::Table`] for a first line without
    /// [`FEATURE_VERSION`], an unknown family, an unreadable key or gamma, a
    /// gamma that is not finite and positive, or a repeated feature.
    pub fn parse(text: &str) -> Result<PatternTable, PatternError> {
        let bad = |line: usize, msg: String| PatternError::Table { line, msg };
        let mut t = PatternTable::default();
        let first = text.lines().next().unwrap_or("");
        if !(first.starts_with('#') && first.contains(FEATURE_VERSION)) {
            return Err(bad(
                1,
                format!("first line does not name {FEATURE_VERSION}"),
            ));
        }
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if let Some(h) = line.strip_prefix('#') {
                t.header.push(h.trim_start().to_string());
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() != 3 {
                return Err(bad(n, format!("expected 3 columns, got {}", cols.len())));
            }
            let fam = Family::from_name(cols[0])
                .ok_or_else(|| bad(n, format!("unknown family '{}'", cols[0])))?;
            let key = if fam == Family::Large {
                u64::from_str_radix(cols[1], 16)
            } else {
                cols[1].parse::<u64>()
            }
            .map_err(|_| bad(n, format!("bad key '{}'", cols[1])))?;
            let g: f32 = cols[2]
                .parse()
                .map_err(|_| bad(n, format!("bad gamma '{}'", cols[2])))?;
            if !(g.is_finite() && g > 0.0) {
                return Err(bad(n, format!("gamma {g} not positive")));
            }
            if t.gamma(fam, key).is_some() {
                return Err(bad(n, format!("repeated feature {} {}", cols[0], cols[1])));
            }
            t.insert(fam, key, g);
        }
        Ok(t)
    }

    /// The table built into the binary (`data/patterns.tsv`), parsed once.
    ///
    /// # Panics
    /// If the built-in table does not parse (a test guards against it).
    pub fn builtin() -> &'static PatternTable {
        static TABLE: OnceLock<PatternTable> = OnceLock::new();
        TABLE.get_or_init(|| PatternTable::parse(BUILTIN).expect("built-in pattern table"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_parses_and_is_not_trivial() {
        let t = PatternTable::builtin();
        assert!(t.header.iter().any(|h| h.contains("patterns train")));
        for fam in FAMILIES {
            assert!(t.count(fam) > 0, "no {} feature", fam.name());
        }
        assert!(t.count(Family::Shape3) > 500, "{}", t.count(Family::Shape3));
        assert!(t.count(Family::Large) > 1000, "{}", t.count(Family::Large));
        // Trained, not flat: a capture that saves a chain beats a
        // self-atari of three stones by far.
        let save = t.gamma(Family::Capture, 1).expect("capture 1");
        let bad = t.gamma(Family::SelfAtari, 2).expect("self-atari 2");
        assert!(save > 10.0 * bad, "{save} vs {bad}");
    }

    #[test]
    fn text_round_trips() {
        let mut t = PatternTable::new(vec![format!("kosumi patterns, {FEATURE_VERSION}")]);
        t.insert(Family::Capture, 0, 30.5);
        t.insert(Family::Large, 0x4a3c_3a2b_9d0b_0ef1, 0.125);
        t.insert(Family::Edge, 1, 0.5);
        let text = t.to_text();
        let back = PatternTable::parse(&text).expect("parse");
        assert_eq!(back.to_text(), text);
        assert_eq!(
            back.gamma(Family::Large, 0x4a3c_3a2b_9d0b_0ef1),
            Some(0.125)
        );
        assert!(text
            .lines()
            .nth(1)
            .expect("row")
            .starts_with("capture\t0\t3.05"));
    }

    #[test]
    fn bad_tables_are_errors() {
        let head = format!("# {FEATURE_VERSION}\n");
        for body in [
            "capture\t0\n",
            "nonsense\t0\t1.0\n",
            "capture\tx\t1.0\n",
            "capture\t0\t-1.0\n",
            "capture\t0\tNaN\n",
            "capture\t0\t1.0\ncapture\t0\t2.0\n",
        ] {
            assert!(
                PatternTable::parse(&format!("{head}{body}")).is_err(),
                "{body:?}"
            );
        }
        assert!(PatternTable::parse("capture\t0\t1.0\n").is_err());
    }
}
