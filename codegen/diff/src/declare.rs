//! How a kind of change is declared in `checks/kinds.rs`: the macros that turn each declaration,
//!
//! ```text
//! /// The doc of the variant.
//! ParamAddedRequired = param.added_required {
//!     "a new required parameter",
//!     clients: Breaking, servers: Compatible "old servers ignore unknown parameters",
//!     semver: Major,
//! }
//! ```
//!
//! into its variant of `ChangeKind`, its `KindInfo` (the id is the area, a dot and the name,
//! as written: `param.added_required`) and its handle in `checks::kind`. A
//! direction is an impact the kind fixes (`Breaking`, `Compatible`, `Documentation`, with the
//! reason the README's table gives, if any) or `ByFinding "the rule"`, when each finding
//! decides. The expansions name the types of `checks/`; this file defines no item of its own.

/// One direction of a kind, as its declaration writes it: `Breaking`, `Compatible "why"`,
/// `ByFinding "the rule"`.
macro_rules! kind_impact {
    (ByFinding $rule:literal) => {
        KindImpact::ByFinding { rule: $rule }
    };
    (ByFinding) => {
        compile_error!("a direction decided by each finding states its rule: ByFinding \"...\"")
    };
    ($impact:ident $why:literal) => {
        KindImpact::Fixed {
            impact: Impact::$impact,
            why: Some($why),
        }
    };
    ($impact:ident) => {
        KindImpact::Fixed {
            impact: Impact::$impact,
            why: None,
        }
    };
}

/// A kind's handle in `checks::kind`: the `Classified` kind itself when the kind fixes both
/// directions, otherwise a value whose method takes what the finding decides.
macro_rules! classify {
    ($(#[$doc:meta])* $kind:ident [ByFinding $c:literal] [ByFinding $s:literal]) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $kind;

        impl $kind {
            /// This kind, with the impacts the finding decides in both directions.
            pub(crate) fn decided(self, impacts: Impacts) -> Classified {
                Classified { kind: ChangeKind::$kind, impacts }
            }
        }
    };
    ($(#[$doc:meta])* $kind:ident [ByFinding $c:literal] [$servers:ident $($why:literal)?]) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $kind;

        impl $kind {
            /// This kind, with the impact on old clients the finding decides.
            pub(crate) fn clients(self, clients: Impact) -> Classified {
                let impacts = Impacts { clients, servers: Impact::$servers };
                Classified { kind: ChangeKind::$kind, impacts }
            }
        }
    };
    ($(#[$doc:meta])* $kind:ident [$clients:ident $($why:literal)?] [ByFinding $s:literal]) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $kind;

        impl $kind {
            /// This kind, with the impact on old servers the finding decides.
            pub(crate) fn servers(self, servers: Impact) -> Classified {
                let impacts = Impacts { clients: Impact::$clients, servers };
                Classified { kind: ChangeKind::$kind, impacts }
            }
        }
    };
    (
        $(#[$doc:meta])*
        $kind:ident [$clients:ident $($cwhy:literal)?] [$servers:ident $($swhy:literal)?]
    ) => {
        $(#[$doc])*
        #[allow(non_upper_case_globals, reason = "named as its variant of ChangeKind")]
        pub(crate) const $kind: Classified = Classified {
            kind: ChangeKind::$kind,
            impacts: Impacts { clients: Impact::$clients, servers: Impact::$servers },
        };
    };
}

/// The kinds of change: for each, its variant of `ChangeKind`, its `KindInfo` and its
/// handle in `checks::kind`.
macro_rules! kinds {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $area:ident . $name:ident {
            $summary:literal,
            clients: $clients:ident $($clients_text:literal)?,
            servers: $servers:ident $($servers_text:literal)?,
            semver: $step:ident $(,)?
        }
    )*) => {
        /// A kind of change between two specs, with a stable id; see [`KindInfo`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum ChangeKind {
            $($(#[$doc])* $variant,)*
        }

        impl ChangeKind {
            /// Every kind of change, sorted by id.
            pub const ALL: &'static [ChangeKind] = &[$(ChangeKind::$variant),*];

            /// The id, summary, impacts and semver step of this kind of change.
            pub const fn info(self) -> KindInfo {
                match self {
                    $(ChangeKind::$variant => KindInfo {
                        id: concat!(stringify!($area), ".", stringify!($name)),
                        summary: $summary,
                        clients: $crate::declare::kind_impact!($clients $($clients_text)?),
                        servers: $crate::declare::kind_impact!($servers $($servers_text)?),
                        step: Step::$step,
                    },)*
                }
            }
        }

        /// Each kind of change as the sites that report it name it: the [`Classified`] kind
        /// (`kind::ParamAddedRequired`) when the kind fixes both impacts, otherwise a value
        /// whose method takes the impacts the finding decides
        /// (`kind::RuleAdded.clients(impact)`). A handle no site uses is dead code, which the
        /// compiler names.
        pub(crate) mod kind {
            use super::{ChangeKind, Classified, Impact, Impacts};

            $($crate::declare::classify!(
                $(#[$doc])* $variant [$clients $($clients_text)?] [$servers $($servers_text)?]
            );)*
        }
    };
}

pub(super) use {classify, kind_impact, kinds};
