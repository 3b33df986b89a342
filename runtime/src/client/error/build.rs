//! Why a client could not be built ([`BuildError`]).

use std::fmt;

/// Why [`ClientBuilder::build`] failed.
///
/// [`ClientBuilder::build`]: crate::client::ClientBuilder::build
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The base URL does not parse or is not an http(s) service root.
    InvalidBaseUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The API key is empty or holds characters a header cannot carry (not shown).
    InvalidApiKey,
    /// The user agent holds characters a header cannot carry.
    InvalidUserAgent(String),
    /// The proxy given to [`ClientBuilder::proxy`] is not an `http://` URL with a host.
    ///
    /// [`ClientBuilder::proxy`]: crate::client::ClientBuilder::proxy
    InvalidProxy {
        /// The URL as given, without credentials.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The TLS configuration could not be made (the platform's certificate store could not be
    /// read, or the crypto provider offers no safe protocol version).
    Tls(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::InvalidBaseUrl { url, reason } => {
                write!(f, "invalid base URL `{url}`: {reason}")
            }
            BuildError::InvalidApiKey => write!(
                f,
                "invalid API key: it is empty or holds characters an HTTP header cannot carry"
            ),
            BuildError::InvalidUserAgent(ua) => write!(
                f,
                "invalid user agent `{ua}`: it holds characters an HTTP header cannot carry"
            ),
            BuildError::InvalidProxy { url, reason } => {
                write!(f, "invalid proxy `{url}`: {reason}")
            }
            BuildError::Tls(_) => write!(f, "cannot configure TLS"),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Tls(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}
