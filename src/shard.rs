//! Shards: one part of a run spread over several machines, given as
//! `I/N` or found in the environment a batch system sets for a job array
//! (`--shard auto` or `auto/N`).
//!
//! | variables | index | count |
//! |---|---|---|
//! | `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT` (or `_MIN`/`_MAX`) | the task id less `SLURM_ARRAY_TASK_MIN` (0 if unset) | `SLURM_ARRAY_TASK_COUNT`, or `MAX - MIN + 1` |
//! | `SLURM_ARRAY_TASK_ID` with `auto/N` | the task id itself | `N` |
//! | `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job) with `auto/N` | the completion index | `N` (the Job's `completions`) |
//!
//! `auto/N` is what a resubmitted array element needs: `sbatch --array=2`
//! gives task 2 a one-task array, and the count must still be the whole
//! run's. Variables that disagree (a count that is not `MAX - MIN + 1`, an
//! index out of range, a Slurm index beside another Kubernetes index, a
//! Slurm count other than `N`) are refused, as is `auto` with neither set.

use std::fmt;
use std::str::FromStr;

/// One part of a run: `index` of `count`, 0-based (as Slurm array and
/// Kubernetes indexed-job indices are).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

impl Shard {
    /// Whether work item `k` (a game, a pair of games) is this shard's:
    /// `k % count == index`.
    pub fn owns(&self, k: usize) -> bool {
        k % self.count == self.index
    }
}

impl FromStr for Shard {
    type Err = String;
    /// `I/N` with `0 <= I < N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{s}' is not I/N with 0 <= I < N");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` option as given: `I/N`, `auto` or `auto/N`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    /// `I/N`.
    Fixed(Shard),
    /// `auto` (`None`) or `auto/N`: from the environment.
    Auto(Option<usize>),
}

impl FromStr for ShardSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<ShardSpec, String> {
        let t = s.trim();
        if t == "auto" {
            return Ok(ShardSpec::Auto(None));
        }
        if let Some(n) = t.strip_prefix("auto/") {
            return match n.trim().parse::<usize>() {
                Ok(n) if n > 0 => Ok(ShardSpec::Auto(Some(n))),
                _ => Err(format!("shard '{s}': auto/N needs a count N of at least 1")),
            };
        }
        t.parse::<Shard>()
            .map(ShardSpec::Fixed)
            .map_err(|e| format!("{e}, auto or auto/N"))
    }
}

/// The Slurm array task id.
pub const SLURM_ID: &str = "SLURM_ARRAY_TASK_ID";
/// The number of tasks in a Slurm array.
pub const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
/// The lowest task id of a Slurm array.
pub const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
/// The highest task id of a Slurm array.
pub const SLURM_MAX: &str = "SLURM_ARRAY_TASK_MAX";
/// The completion index of a Kubernetes Indexed Job's pod.
pub const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";

impl ShardSpec {
    /// The shard this spec names, reading the batch system's variables
    /// through `env` for `auto` (pass `|k| std::env::var(k).ok()`).
    ///
    /// # Errors
    /// A message when `auto` finds neither system's variables, when a
    /// variable is not a number, or when the values disagree.
    pub fn resolve(&self, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let given = match *self {
            ShardSpec::Fixed(s) => return Ok(s),
            ShardSpec::Auto(n) => n,
        };
        let num = |k: &str| -> Result<Option<usize>, String> {
            match env(k) {
                None => Ok(None),
                Some(v) if v.trim().is_empty() => Ok(None),
                Some(v) => v.trim().parse::<usize>().map(Some).map_err(|_| {
                    format!(
                        "{k}='{}' is not a non-negative whole number",
                        crate::text::clip(&v)
                    )
                }),
            }
        };
        let slurm = match num(SLURM_ID)? {
            None => None,
            Some(id) => {
                let min = num(SLURM_MIN)?;
                let max = num(SLURM_MAX)?;
                let count = num(SLURM_COUNT)?;
                let span = match (min, max) {
                    (Some(lo), Some(hi)) if hi >= lo => Some(hi - lo + 1),
                    (Some(lo), Some(hi)) => {
                        return Err(format!("{SLURM_MIN}={lo} is above {SLURM_MAX}={hi}"))
                    }
                    _ => None,
                };
                if let (Some(c), Some(s)) = (count, span) {
                    if c != s {
                        return Err(format!(
                            "{SLURM_COUNT}={c} disagrees with {SLURM_MIN}..{SLURM_MAX} \
                             ({s} ids): a stepped array (--array=A-B:S) cannot be a shard \
                             set; use --array=0-{} and --shard auto",
                            c.max(1) - 1
                        ));
                    }
                }
                Some(match given {
                    Some(n) => {
                        if id >= n {
                            return Err(format!(
                                "{SLURM_ID}={id} is not below the count {n} of --shard auto/{n} \
                                 (number the array from 0: --array=0-{})",
                                n - 1
                            ));
                        }
                        if let Some(c) = count.or(span) {
                            if c > n {
                                return Err(format!(
                                    "the Slurm array has {c} tasks but --shard auto/{n} says {n}"
                                ));
                            }
                        }
                        Shard {
                            index: id,
                            count: n,
                        }
                    }
                    None => {
                        let Some(c) = count.or(span) else {
                            return Err(format!(
                                "{SLURM_ID} is set but neither {SLURM_COUNT} nor \
                                 {SLURM_MIN}/{SLURM_MAX}: give the count as --shard auto/N"
                            ));
                        };
                        let lo = min.unwrap_or(0);
                        if id < lo || id - lo >= c {
                            return Err(format!(
                                "{SLURM_ID}={id} is outside the array's {c} tasks from {lo}"
                            ));
                        }
                        Shard {
                            index: id - lo,
                            count: c,
                        }
                    }
                })
            }
        };
        let k8s = match num(K8S_INDEX)? {
            None => None,
            Some(i) => {
                let Some(n) = given else {
                    return Err(format!(
                        "{K8S_INDEX}={i} is set but the count is not: give --shard auto/N \
                         with N the Job's completions"
                    ));
                };
                if i >= n {
                    return Err(format!(
                        "{K8S_INDEX}={i} is not below the count {n} of --shard auto/{n}"
                    ));
                }
                Some(Shard { index: i, count: n })
            }
        };
        match (slurm, k8s) {
            (Some(a), Some(b)) if a != b => Err(format!(
                "the Slurm array says shard {a} but {K8S_INDEX} says {b}"
            )),
            (Some(a), _) => Ok(a),
            (None, Some(b)) => Ok(b),
            (None, None) => Err(format!(
                "--shard auto: neither {SLURM_ID} (a Slurm job array) nor {K8S_INDEX} \
                 (a Kubernetes Indexed Job) is set; give --shard I/N"
            )),
        }
    }

    /// [`ShardSpec::resolve`] with the process environment.
    ///
    /// # Errors
    /// As [`ShardSpec::resolve`].
    pub fn resolve_from_process(&self) -> Result<Shard, String> {
        self.resolve(&|k| std::env::var(k).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn with(spec: &str, vars: &[(&str, &str)]) -> Result<Shard, String> {
        let env: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        spec.parse::<ShardSpec>()?.resolve(&|k| env.get(k).cloned())
    }

    fn s(index: usize, count: usize) -> Shard {
        Shard { index, count }
    }

    #[test]
    fn specs_parse() {
        assert_eq!("2/4".parse(), Ok(ShardSpec::Fixed(s(2, 4))));
        assert_eq!("auto".parse(), Ok(ShardSpec::Auto(None)));
        assert_eq!("auto/8".parse(), Ok(ShardSpec::Auto(Some(8))));
        for bad in [
            "4/4", "1/0", "x/2", "1", "-1/2", "1/2/3", "auto/0", "auto/x", "autox",
        ] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
        // A fixed shard ignores the environment.
        assert_eq!(with("1/3", &[(SLURM_ID, "x")]), Ok(s(1, 3)));
    }

    #[test]
    fn slurm_arrays() {
        let arr = [
            (SLURM_ID, "2"),
            (SLURM_COUNT, "4"),
            (SLURM_MIN, "0"),
            (SLURM_MAX, "3"),
        ];
        assert_eq!(with("auto", &arr), Ok(s(2, 4)));
        assert_eq!(with("auto/4", &arr), Ok(s(2, 4)));
        // Numbered from 1: the index counts from the lowest id.
        let one = [(SLURM_ID, "1"), (SLURM_MIN, "1"), (SLURM_MAX, "4")];
        assert_eq!(with("auto", &one), Ok(s(0, 4)));
        // A resubmitted element (--array=2) with the whole run's count.
        let again = [
            (SLURM_ID, "2"),
            (SLURM_COUNT, "1"),
            (SLURM_MIN, "2"),
            (SLURM_MAX, "2"),
        ];
        assert_eq!(with("auto/4", &again), Ok(s(2, 4)));
        // Count only.
        assert_eq!(
            with("auto", &[(SLURM_ID, "3"), (SLURM_COUNT, "5")]),
            Ok(s(3, 5))
        );
    }

    #[test]
    fn disagreements_and_gaps_are_refused() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
        let cases: &[Case] = &[
            ("auto", &[], "neither"),
            ("auto/4", &[], "neither"),
            ("auto", &[(SLURM_ID, "1")], "auto/N"),
            (
                "auto",
                &[(SLURM_ID, "x"), (SLURM_COUNT, "2")],
                "not a non-negative",
            ),
            (
                "auto",
                &[
                    (SLURM_ID, "0"),
                    (SLURM_COUNT, "3"),
                    (SLURM_MIN, "0"),
                    (SLURM_MAX, "4"),
                ],
                "stepped",
            ),
            (
                "auto",
                &[(SLURM_ID, "0"), (SLURM_MIN, "3"), (SLURM_MAX, "1")],
                "above",
            ),
            ("auto", &[(SLURM_ID, "7"), (SLURM_COUNT, "4")], "outside"),
            (
                "auto/4",
                &[(SLURM_ID, "4"), (SLURM_COUNT, "4")],
                "not below",
            ),
            ("auto/2", &[(SLURM_ID, "1"), (SLURM_COUNT, "4")], "4 tasks"),
            ("auto", &[(K8S_INDEX, "1")], "count is not"),
            ("auto/3", &[(K8S_INDEX, "3")], "not below"),
            ("auto/3", &[(K8S_INDEX, "-1")], "not a non-negative"),
            (
                "auto/4",
                &[(K8S_INDEX, "1"), (SLURM_ID, "2"), (SLURM_COUNT, "4")],
                "says",
            ),
        ];
        for (spec, vars, needle) in cases {
            match with(spec, vars) {
                Ok(got) => panic!("{spec} {vars:?} gave {got}"),
                Err(e) => assert!(e.contains(needle), "{spec} {vars:?}: {e}"),
            }
        }
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        assert_eq!(with("auto/3", &[(K8S_INDEX, "0")]), Ok(s(0, 3)));
        assert_eq!(with("auto/3", &[(K8S_INDEX, "2")]), Ok(s(2, 3)));
        // Both systems agreeing is fine.
        assert_eq!(
            with(
                "auto/4",
                &[(K8S_INDEX, "1"), (SLURM_ID, "1"), (SLURM_COUNT, "4")]
            ),
            Ok(s(1, 4))
        );
        // Every index of a run, once: the shards own each item once.
        let mut owners = vec![0; 10];
        for i in 0..3 {
            let sh = with("auto/3", &[(K8S_INDEX, &i.to_string())]).unwrap();
            for (k, o) in owners.iter_mut().enumerate() {
                *o += usize::from(sh.owns(k));
            }
        }
        assert_eq!(owners, vec![1; 10]);
    }
}
