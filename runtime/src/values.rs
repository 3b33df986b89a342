//! Value sets: the impls every generated value-set enum shares, written once as a macro, and
//! the error of a value a strict set does not list ([`UnknownValue`]).

use std::fmt;

/// The reason given for a value outside a value set: ``must be one of `a`, `b` ``.
pub fn values_reason(wire: &[&str]) -> String {
    let quoted: Vec<String> = wire.iter().map(|w| format!("`{w}`")).collect();
    format!("must be one of {}", quoted.join(", "))
}

/// A value of a strict value set that the spec does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// The value set.
    pub set: &'static str,
    /// The text received.
    pub got: String,
    /// The values the set allows.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a value of {}; expected one of {}",
            self.got,
            self.set,
            crate::text::one_of(self.expected)
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Implements a generated value-set enum: `ALL`, `WIRE`, `as_str`, `FromStr`, serde,
/// [`ParamValue`](crate::ParamValue) and `Display`, from the variants and their wire
/// spellings.
///
/// - `strict Name { Variant = "wire", ... }`: a set used only by parameters; decoding an
///   unknown value fails.
/// - `tolerant Name { Variant = "wire", ... }`: a set used by records; the enum also has a
///   variant `Unknown(String)` that keeps a value the spec does not list, so a server adding
///   values later does not break decoding. `FromStr` stays strict.
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// pub enum Order {
///     Asc,
///     Desc,
/// }
/// mrds_runtime::value_set!(strict Order { Asc = "asc", Desc = "desc" });
///
/// assert_eq!("desc".parse::<Order>().unwrap(), Order::Desc);
/// assert_eq!(Order::Asc.to_string(), "asc");
/// assert!("up".parse::<Order>().is_err());
/// ```
#[macro_export]
macro_rules! value_set {
    (strict $name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        impl $name {
            /// Every value, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Wire spellings, in the spec's order.
            pub const WIRE: &'static [&'static str] = &[$($wire),+];

            /// The wire spelling.
            pub fn as_str(&self) -> &'static str {
                match self {
                    $($name::$variant => $wire,)+
                }
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::UnknownValue;
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                match s {
                    $($wire => ::core::result::Result::Ok($name::$variant),)+
                    _ => ::core::result::Result::Err($crate::UnknownValue {
                        set: ::core::stringify!($name),
                        got: ::std::string::ToString::to_string(s),
                        expected: Self::WIRE,
                    }),
                }
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let s = <$crate::__private::Cow<'de, str> as $crate::__private::serde::Deserialize>::deserialize(deserializer)?;
                s.parse().map_err(|_| {
                    <D::Error as $crate::__private::serde::de::Error>::unknown_variant(&s, Self::WIRE)
                })
            }
        }

        $crate::value_set!(@common $name);
    };
    (tolerant $name:ident { $($variant:ident = $wire:literal),+ $(,)? }) => {
        impl $name {
            /// The known values, in the spec's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Wire spellings of the known values, in the spec's order.
            pub const WIRE: &'static [&'static str] = &[$($wire),+];

            /// The wire spelling.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $wire,)+
                    $name::Unknown(raw) => raw,
                }
            }

            /// True unless this is [`Self::Unknown`].
            pub fn is_known(&self) -> bool {
                !::core::matches!(self, $name::Unknown(_))
            }

            /// Reads a wire value, keeping an unknown one as [`Self::Unknown`].
            pub fn from_wire(s: &str) -> Self {
                match s {
                    $($wire => $name::$variant,)+
                    other => $name::Unknown(::std::string::ToString::to_string(other)),
                }
            }
        }

        impl ::core::str::FromStr for $name {
            type Err = $crate::UnknownValue;
            /// Strict: only the values the spec lists.
            fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                match Self::from_wire(s) {
                    $name::Unknown(_) => ::core::result::Result::Err($crate::UnknownValue {
                        set: ::core::stringify!($name),
                        got: ::std::string::ToString::to_string(s),
                        expected: Self::WIRE,
                    }),
                    known => ::core::result::Result::Ok(known),
                }
            }
        }

        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::__private::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                let s = <$crate::__private::Cow<'de, str> as $crate::__private::serde::Deserialize>::deserialize(deserializer)?;
                let value = Self::from_wire(&s);
                if let $name::Unknown(_) = &value {
                    // Told to a client noticing drift, if one is decoding on this thread.
                    $crate::__private::unknown_value(&s);
                }
                ::core::result::Result::Ok(value)
            }
        }

        $crate::value_set!(@common $name);
    };
    (@common $name:ident) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<S: $crate::__private::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl $crate::ParamValue for $name {
            fn parse_param(text: &str) -> ::core::result::Result<Self, (&'static str, ::std::string::String)> {
                text.parse()
                    .map_err(|_| ("values", $crate::values_reason(Self::WIRE)))
            }
            fn to_param(&self) -> ::std::string::String {
                ::std::string::ToString::to_string(self.as_str())
            }
            fn is_known(&self) -> bool {
                Self::WIRE.contains(&self.as_str())
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::ParamValue;

    #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum Kind {
        Section,
        Exhibit,
        Unknown(String),
    }
    crate::value_set!(tolerant Kind { Section = "section", Exhibit = "exhibit" });

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum Step {
        OneMinute,
        OneDay,
    }
    crate::value_set!(strict Step { OneMinute = "1min", OneDay = "1d" });

    #[test]
    fn tolerant_sets_keep_unknown_values_but_parse_strictly() {
        let k: Kind = serde_json::from_str("\"appendix\"").unwrap();
        assert_eq!(k, Kind::Unknown("appendix".into()));
        assert!(!k.is_known() && !ParamValue::is_known(&k));
        assert_eq!(serde_json::to_string(&k).unwrap(), "\"appendix\"");
        assert!("appendix".parse::<Kind>().is_err());
        assert_eq!(Kind::from_wire("exhibit"), Kind::Exhibit);
        assert_eq!(Kind::ALL, &[Kind::Section, Kind::Exhibit]);
        assert_eq!(
            Kind::parse_param("x"),
            Err(("values", "must be one of `section`, `exhibit`".to_string()))
        );
    }

    #[test]
    fn strict_sets_reject_unknown_values() {
        assert!(serde_json::from_str::<Step>("\"1w\"").is_err());
        assert_eq!(
            serde_json::from_str::<Step>("\"1d\"").unwrap(),
            Step::OneDay
        );
        let e = "1w".parse::<Step>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "`1w` is not a value of Step; expected one of `1min` or `1d`"
        );
        assert_eq!(Step::OneMinute.to_param(), "1min");
        assert_eq!(Step::WIRE, &["1min", "1d"]);
        assert_eq!(Step::ALL, &[Step::OneMinute, Step::OneDay]);
    }
}
