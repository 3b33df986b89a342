//! The sample-data server (feature `mock`): how a request selects from an endpoint's sample
//! records, and the command line that serves them.

mod cli;
mod engine;

pub use cli::{App, LogFormat, run};
pub use engine::{FieldChoice, Given, Order, Range, Samples, Set, answer, select};
