//! Semver steps, versions, and whether the workspace version steps far enough.
//!
//! Each kind of change names the step the generated crates need for it
//! ([`ChangeKind::step`](super::ChangeKind::step)); a set of changes needs the largest step of
//! its findings ([`Changes::step`](super::Changes::step)). The runtime and the generated crates
//! share one version (`[workspace.package] version`), so the version must step at least that
//! far. Below 1.0 the first non-zero number is the major one (cargo's rule): `0.1.0` → `0.2.0`
//! is a major step, `0.1.0` → `0.1.1` a minor (or patch) one.

use std::fmt;

/// A semver step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    /// Nothing changes.
    #[default]
    None,
    /// Documentation, or a fix.
    Patch,
    /// Additions; behaviour that follows the new spec.
    Minor,
    /// Something a user's code relies on is gone or changed.
    Major,
}

impl Step {
    /// `none`, `patch`, `minor` or `major`.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::None => "none",
            Step::Patch => "patch",
            Step::Minor => "minor",
            Step::Major => "major",
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A version `MAJOR.MINOR.PATCH` (a pre-release or build suffix is ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    /// Parses `1.2.3` (`1.2.3-rc.1` and `1.2.3+build` read as `1.2.3`).
    pub fn parse(text: &str) -> Option<Version> {
        let core = text.trim().split(['-', '+']).next()?;
        let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
        let v = Version(parts.next()??, parts.next()??, parts.next()??);
        parts.next().is_none().then_some(v)
    }

    /// The smallest version after this one that takes `step` (`0.1.0` and minor: `0.1.1`).
    pub fn next(self, step: Step) -> Version {
        let Version(a, b, c) = self;
        match (step, a, b) {
            (Step::None, ..) => self,
            (_, 0, 0) => Version(0, 0, c + 1),
            (Step::Major, 0, _) => Version(0, b + 1, 0),
            (_, 0, _) => Version(0, b, c + 1),
            (Step::Major, ..) => Version(a + 1, 0, 0),
            (Step::Minor, ..) => Version(a, b + 1, 0),
            (Step::Patch, ..) => Version(a, b, c + 1),
        }
    }

    /// The step from `self` to `new`, as cargo reads it; `None` when `new` is not higher.
    pub fn step_to(self, new: Version) -> Option<Step> {
        if new <= self {
            return None;
        }
        let (Version(a, b, _), Version(x, y, _)) = (self, new);
        Some(match (a, b) {
            (0, 0) => Step::Major,
            (0, _) if (x, y) != (0, b) => Step::Major,
            // Below 1.0 the last number carries minor and patch changes alike.
            (0, _) => Step::Minor,
            _ if x != a => Step::Major,
            _ if y != b => Step::Minor,
            _ => Step::Patch,
        })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The workspace version on each side, and what the policy says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionCheck {
    /// The base's version (text as written).
    pub old: String,
    /// The change's version.
    pub new: String,
    /// The verdict.
    pub verdict: VersionVerdict,
}

/// Whether the workspace version steps far enough.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VersionVerdict {
    /// The version steps at least as far as the changes need.
    Enough(Step),
    /// The version is unchanged: the change is not a release. Passes unless the base is the
    /// last release (`release`), when the next release needs `needs`.
    Unchanged {
        /// The version the next release needs at least, when the changes need a step.
        needs: Option<String>,
        /// True when the base is the last release, so an unchanged version fails.
        release: bool,
    },
    /// The version steps, but less far than the changes need.
    TooSmall {
        /// The step taken.
        taken: Step,
        /// The smallest version that would do.
        needs: String,
    },
    /// The version went down.
    Lower,
    /// A version does not read as `MAJOR.MINOR.PATCH`.
    Unreadable(String),
}

impl VersionCheck {
    /// Compares the two versions with the step `needed`. With `release`, the base is the last
    /// release, so an unchanged version fails when a step is needed.
    pub fn new(old: &str, new: &str, needed: Step, release: bool) -> VersionCheck {
        let verdict = match (Version::parse(old), Version::parse(new)) {
            (None, _) => VersionVerdict::Unreadable(old.to_owned()),
            (_, None) => VersionVerdict::Unreadable(new.to_owned()),
            (Some(o), Some(n)) if o == n => VersionVerdict::Unchanged {
                needs: (needed > Step::None).then(|| o.next(needed).to_string()),
                release,
            },
            (Some(o), Some(n)) => match o.step_to(n) {
                None => VersionVerdict::Lower,
                Some(taken) if taken >= needed => VersionVerdict::Enough(taken),
                Some(taken) => VersionVerdict::TooSmall {
                    taken,
                    needs: o.next(needed).to_string(),
                },
            },
        };
        VersionCheck {
            old: old.to_owned(),
            new: new.to_owned(),
            verdict,
        }
    }

    /// True when the version passes the policy.
    pub fn passes(&self) -> bool {
        match &self.verdict {
            VersionVerdict::Enough(_) => true,
            VersionVerdict::Unchanged { needs, release } => !release || needs.is_none(),
            VersionVerdict::TooSmall { .. }
            | VersionVerdict::Lower
            | VersionVerdict::Unreadable(_) => false,
        }
    }

    /// One line: the versions and the verdict.
    pub fn describe(&self) -> String {
        let head = format!("workspace version {} -> {}", self.old, self.new);
        match &self.verdict {
            VersionVerdict::Enough(step) => format!("{head}: a {step} step, enough"),
            VersionVerdict::Unchanged { needs: None, .. } => {
                format!("{head}: unchanged, and no step is needed")
            }
            VersionVerdict::Unchanged {
                needs: Some(v),
                release: false,
            } => format!("{head}: unchanged (not a release); the next release needs {v} or later"),
            VersionVerdict::Unchanged {
                needs: Some(v),
                release: true,
            } => format!("{head}: NOT STEPPED: this release needs {v} or later"),
            VersionVerdict::TooSmall { taken, needs } => {
                format!("{head}: NOT ENOUGH: a {taken} step; the changes need {needs} or later")
            }
            VersionVerdict::Lower => format!("{head}: the version went DOWN"),
            VersionVerdict::Unreadable(v) => {
                format!("{head}: `{v}` is not a MAJOR.MINOR.PATCH version")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    #[test]
    fn versions_parse() {
        assert_eq!(Version::parse("0.1.0"), Some(Version(0, 1, 0)));
        assert_eq!(Version::parse("1.2.3-rc.1"), Some(Version(1, 2, 3)));
        assert_eq!(Version::parse("1.2"), None);
        assert_eq!(Version::parse("1.2.3.4"), None);
        assert_eq!(Version::parse("x.1.0"), None);
    }

    #[test]
    fn steps_follow_cargo_below_and_above_one() {
        assert_eq!(v("0.1.0").step_to(v("0.1.1")), Some(Step::Minor));
        assert_eq!(v("0.1.0").step_to(v("0.2.0")), Some(Step::Major));
        assert_eq!(v("0.1.0").step_to(v("1.0.0")), Some(Step::Major));
        assert_eq!(v("0.0.1").step_to(v("0.0.2")), Some(Step::Major));
        assert_eq!(v("1.2.3").step_to(v("1.2.4")), Some(Step::Patch));
        assert_eq!(v("1.2.3").step_to(v("1.3.0")), Some(Step::Minor));
        assert_eq!(v("1.2.3").step_to(v("2.0.0")), Some(Step::Major));
        assert_eq!(v("1.2.3").step_to(v("1.2.3")), None);
        assert_eq!(v("1.2.3").step_to(v("1.2.2")), None);
        for (old, step, next) in [
            ("0.1.0", Step::Patch, "0.1.1"),
            ("0.1.0", Step::Minor, "0.1.1"),
            ("0.1.4", Step::Major, "0.2.0"),
            ("0.0.3", Step::Minor, "0.0.4"),
            ("1.2.3", Step::Patch, "1.2.4"),
            ("1.2.3", Step::Minor, "1.3.0"),
            ("1.2.3", Step::Major, "2.0.0"),
        ] {
            assert_eq!(v(old).next(step), v(next), "{old} {step}");
            assert!(v(old).step_to(v(next)) >= Some(step), "{old} {step}");
        }
    }

    #[test]
    fn the_version_check() {
        let check = |old, new, needed, release| VersionCheck::new(old, new, needed, release);
        assert!(check("0.1.0", "0.1.1", Step::Minor, false).passes());
        assert!(!check("0.1.0", "0.1.1", Step::Major, false).passes());
        assert!(check("0.1.0", "0.2.0", Step::Major, true).passes());
        assert!(check("0.1.0", "0.1.0", Step::Major, false).passes());
        assert!(!check("0.1.0", "0.1.0", Step::Patch, true).passes());
        assert!(check("0.1.0", "0.1.0", Step::None, true).passes());
        assert!(!check("0.2.0", "0.1.9", Step::None, false).passes());
        assert!(!check("0.2", "0.3.0", Step::None, false).passes());
        assert_eq!(
            check("0.1.0", "0.1.1", Step::Major, false).describe(),
            "workspace version 0.1.0 -> 0.1.1: NOT ENOUGH: a minor step; the changes need 0.2.0 or later"
        );
    }
}
