//! Text on the wire: percent coding (`percent.rs`), the checks of the formats parameters and
//! records use and instants read from text (`formats.rs`), the calendar arithmetic they rest
//! on (`calendar.rs`), and text made into names and messages (`names.rs`).

mod calendar;
mod formats;
mod names;
mod percent;

pub use calendar::{civil_from_days, days_from_civil};
pub use formats::{
    instant_seconds, is_date, is_date_time, is_hex16, is_iso_timestamp, is_numeric_text,
    is_timestamp_millis, is_url, is_uuid, rfc3339_seconds,
};
pub use names::{name_part, one_of};
pub use percent::{decode_segment, percent_decode, percent_encode};
